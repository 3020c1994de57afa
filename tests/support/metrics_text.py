"""Reading a Prometheus text exposition in tests: every sample by name and labels."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families


def samples(text: str) -> dict[tuple[str, frozenset], float]:
    """{(sample name, frozenset of label pairs): value} of an exposition."""
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return found


def value(found: dict, name: str, **labels) -> float:
    """One sample's value (0 when the series is absent)."""
    return found.get((name, frozenset(labels.items())), 0.0)


def total(found: dict, name: str, **labels) -> float:
    """The sum of every series of `name` whose labels include `labels`."""
    wanted = set(labels.items())
    return sum(v for (n, pairs), v in found.items() if n == name and wanted <= pairs)


def label_values(found: dict, name: str, label: str) -> set[str]:
    """Every value `label` takes among the series of `name`."""
    return {
        dict(pairs)[label] for (n, pairs), _ in found.items() if n == name and label in dict(pairs)
    }
