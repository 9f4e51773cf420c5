"""Generation counters of records: how every process knows a cached record body is stale."""
from django.db import models


class RecordGeneration(models.Model):
    """A counter bumped by every write that changes what records show: "*" for all records, or
    one paper's arXiv id. Kept in the database, in the writer's own transaction, so the bump
    commits (or rolls back) with the data it describes and every process (web, worker, command)
    sees it on its next read, whatever cache each one uses or whether the cache is up at all."""

    key = models.CharField(max_length=48, primary_key=True)
    value = models.BigIntegerField(default=0)

    class Meta:
        db_table = "record_generations"

    def __str__(self) -> str:
        return f"{self.key}: {self.value}"
