import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError

from citations.models import Override
from curation.services import revision_of

CHANGELIST = "/admin/citations/paperreference/"


def page(reference):
    return f"{CHANGELIST}{reference.pk}/change/"


@pytest.fixture
def logged_in(client, curator):
    client.force_login(curator)
    return client


def test_the_access_date_queue_lists_them_with_counts(logged_in, access_date):
    html = logged_in.get(f"{CHANGELIST}?queue=access_date").content.decode()
    assert "8 results" in html and "Accessed: 2025-06" in html
    assert "Title is an access date (8)" in html          # facet counts
    assert "Year matches an arXiv id prefix (2)" in html   # 1909 and 2001


def test_queues_page_counts_every_queue(logged_in, access_date):
    html = logged_in.get(f"{CHANGELIST}queues/").content.decode()
    assert "Parse uncertain" in html and "Index number looks like a year" in html


def test_search_finds_raw_text_titles_and_papers(logged_in, access_date):
    assert "Megatron-lm" in logged_in.get(f"{CHANGELIST}?q=Megatron").content.decode()
    assert "62 results" in logged_in.get(f"{CHANGELIST}?q=2509.11076").content.decode()


def test_the_reference_page_shows_fields_history_and_the_form(logged_in, megatron):
    html = logged_in.get(page(megatron)).content.decode()
    for part in ("Fields the record shows", "Resolution history", "Override a field", "Candidate papers",
                 "Audit trail of this reference", "Megatron-lm: Training multi-billion parameter"):
        assert part in html


def test_an_override_posted_from_the_reference_page_is_saved_and_audited(logged_in, access_date):
    response = logged_in.post(f"{page(access_date).replace('change/', 'override/')}", {
        "field": "title", "value": "NVIDIA Megatron-LM", "reason": "Named by the URL", "revision": 0}, follow=True)
    assert "Saved: title of" in response.content.decode()
    entry = Override.objects.get()
    assert (entry.value_text, entry.previous_text, entry.curator.username) == ("NVIDIA Megatron-LM",
                                                                              "Accessed: 2025-06", "ada")


def test_a_stale_form_is_refused_with_a_clear_message(logged_in, other_curator, client, access_date):
    logged_in.post(page(access_date).replace("change/", "override/"),
                   {"field": "year", "value": "2024", "reason": "first", "revision": 0})
    response = logged_in.post(page(access_date).replace("change/", "override/"),
                              {"field": "year", "value": "2023", "reason": "second", "revision": 0}, follow=True)
    html = response.content.decode()
    # Its sentence once (issue 31, item 10): not "Not saved (…): Not saved: ada changed…".
    assert "Not saved (arXiv:2509.11076 [5]): ada changed this reference" in html
    assert html.count("Not saved") == 1
    assert Override.objects.count() == 1


def test_staff_without_the_curators_group_cannot_override(client, staff_reader, access_date):
    client.force_login(staff_reader)
    response = client.post(page(access_date).replace("change/", "override/"),
                           {"field": "title", "value": "X title", "reason": "because", "revision": 0})
    assert response.status_code == 403
    assert not Override.objects.exists()


def test_anonymous_users_are_sent_to_log_in(client, access_date):
    response = client.post(page(access_date).replace("change/", "override/"),
                           {"field": "title", "value": "X title", "reason": "because", "revision": 0})
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert not Override.objects.exists()


def test_withdrawing_from_the_page(logged_in, access_date):
    logged_in.post(page(access_date).replace("change/", "override/"),
                   {"field": "title", "value": "NVIDIA Megatron-LM", "reason": "Named by the URL", "revision": 0})
    entry = Override.objects.get()
    response = logged_in.post(f"{CHANGELIST}{access_date.pk}/withdraw/{entry.pk}/",
                              {"reason": "Wrong call", "revision": revision_of(access_date.pk)}, follow=True)
    assert "Withdrawn" in response.content.decode()
    assert Override.objects.filter(action="withdraw", withdraws=entry).exists()


def test_nobody_can_change_or_delete_audit_entries_or_observations_through_admin(client, access_date, curator):
    logged = Override.objects.create(reference=access_date, field="year", action="set", value_year=2024,
                                     reason="seed", curator=curator)
    root = User.objects.create_superuser("root", password="pw-root-123456")
    client.force_login(root)
    assert client.get(f"/admin/citations/override/{logged.pk}/delete/").status_code == 403
    assert client.post(f"/admin/citations/override/{logged.pk}/delete/", {"post": "yes"}).status_code == 403
    assert client.get(f"{CHANGELIST}{access_date.pk}/delete/").status_code == 403
    assert client.get("/admin/citations/override/add/").status_code == 403
    html = client.get(f"/admin/citations/override/{logged.pk}/change/").content.decode()
    assert 'name="_save"' not in html                      # a view, with nothing to save
    assert Override.objects.filter(pk=logged.pk).exists()


def test_the_audit_trail_filters_by_curator_field_and_date(logged_in, access_date, megatron):
    logged_in.post(page(access_date).replace("change/", "override/"),
                   {"field": "title", "value": "NVIDIA Megatron-LM", "reason": "Named by the URL", "revision": 0})
    logged_in.post(page(megatron).replace("change/", "override/"),
                   {"field": "year", "value": "2019", "reason": "From the arXiv id", "revision": 0})
    assert "1 override" in logged_in.get("/admin/citations/override/?field__exact=year").content.decode()
    curator_id = Override.objects.first().curator_id
    assert "2 overrides" in logged_in.get(f"/admin/citations/override/?curator__id__exact={curator_id}").content.decode()


def test_the_audit_trail_at_its_old_address_leads_to_its_new_one(logged_in):
    old = logged_in.get("/admin/curation/override/?field__exact=year")
    assert old.status_code == 301 and old["Location"] == "/admin/citations/override/?field__exact=year"


def test_bulk_not_a_work_audits_each_item(logged_in, access_date, megatron):
    ids = [str(access_date.pk), str(megatron.pk)]
    confirm = logged_in.post(CHANGELIST, {"action": "mark_not_a_work", "_selected_action": ids})
    assert "2 reference(s) will each get an audit entry" in confirm.content.decode()
    logged_in.post(CHANGELIST, {"action": "mark_not_a_work", "_selected_action": ids, "apply": "1",
                                "reason": "Software, not a paper"})
    assert Override.objects.filter(field="not_a_work", reason="Software, not a paper").count() == 2


def test_bulk_re_resolution_is_logged_per_item(logged_in, access_date, megatron):
    logged_in.post(CHANGELIST, {"action": "re_resolve", "_selected_action": [str(access_date.pk), str(megatron.pk)]})
    assert LogEntry.objects.filter(change_message="Re-resolution requested").count() == 2


def test_the_override_command_applies_the_same_rules(access_date, curator, capsys):
    call_command("override", str(access_date.pk), "--field", "year", "--value", "2024", "--reason", "checked",
                 "--curator", "ada")
    assert "audit entry #" in capsys.readouterr().out
    with pytest.raises(CommandError, match="the year is already 2024"):
        call_command("override", str(access_date.pk), "--field", "year", "--value", "2024", "--reason", "again",
                     "--curator", "ada")
    with pytest.raises(CommandError, match="between 1600"):
        call_command("override", str(access_date.pk), "--field", "year", "--value", "1200", "--reason", "checked",
                     "--curator", "ada")
    with pytest.raises(CommandError, match="no reference observation"):
        call_command("override", "not-a-uuid", "--field", "year", "--value", "2020", "--reason", "r r",
                     "--curator", "ada")


def test_the_public_entry_page_shows_reason_and_date_and_the_curator_only_to_staff(client, logged_in, access_date):
    logged_in.post(page(access_date).replace("change/", "override/"),
                   {"field": "title", "value": "NVIDIA Megatron-LM", "reason": "Named by the URL", "revision": 0})
    entry = Override.objects.get()
    client.logout()
    public = client.get(f"/curation/overrides/{entry.pk}").content.decode()
    assert "Named by the URL" in public and "Accessed: 2025-06" in public and "NVIDIA Megatron-LM" in public
    assert "<dt>Curator</dt>" not in public
    logged_in.force_login(entry.curator)
    assert "<dt>Curator</dt><dd>ada</dd>" in logged_in.get(f"/curation/overrides/{entry.pk}").content.decode()
    assert client.get("/curation/overrides/999999").status_code == 404


def test_the_record_page_marks_curated_fields_and_links_the_entry(client, logged_in, access_date):
    logged_in.post(page(access_date).replace("change/", "override/"),
                   {"field": "title", "value": "NVIDIA Megatron-LM", "reason": "Named by the URL", "revision": 0})
    entry = Override.objects.get()
    html = client.get("/paper/2509.11076/citation-record").content.decode()
    assert 'curated" data-field="citation.cited_work.title">NVIDIA Megatron-LM</span>' in html
    assert f'href="/curation/overrides/{entry.pk}"' in html


@pytest.mark.parametrize("action", ["mark_not_a_work", "re_resolve"])
@pytest.mark.parametrize("ids", [["x"], ["x", "1e400", "00000000-0000-0000-0000-00000000000\x00"]])
def test_a_bulk_action_on_malformed_ids_is_a_message_not_a_500(logged_in, access_date, action, ids):
    response = logged_in.post(CHANGELIST, {"action": action, "_selected_action": ids}, follow=True)
    assert response.status_code == 200
    assert "Items must be selected in order to perform actions on them" in response.content.decode()
    assert not Override.objects.exists()


def test_a_bulk_action_leaves_out_the_malformed_ids_and_acts_on_the_others(logged_in, access_date):
    logged_in.post(CHANGELIST, {"action": "mark_not_a_work", "_selected_action": ["x", str(access_date.pk)],
                                "apply": "1", "reason": "Software, not a paper"})
    assert Override.objects.filter(field="not_a_work", reference=access_date).count() == 1


@pytest.mark.parametrize("path", ["/admin/citations/job/", "/admin/auth/user/", "/admin/citations/override/"])
def test_every_admin_answers_a_malformed_selection_with_a_message(client, db, path):
    client.force_login(User.objects.create_superuser("root", password="pw-root-123456"))
    response = client.post(path, {"action": "delete_selected", "_selected_action": ["x", "99999999999999999999"]},
                           follow=True)
    assert response.status_code == 200
