from django.apps import AppConfig


class CurationConfig(AppConfig):
    name = "curation"
    verbose_name = "Curation"

    def ready(self):
        from citations.api.urls import ROOT_ENTRIES

        ROOT_ENTRIES["overrides"] = "override-list"      # curation/api/urls.py serves it
