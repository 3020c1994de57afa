"""The pairing rules as data (application.seeks.pairing): no Redis, no clock."""

from __future__ import annotations

from application.seeks.pairing import (
    Candidate,
    PairingRules,
    Table,
    accepted_range,
    bot_tables,
    household,
    tables,
)

POOL = ("keltis-card", b"{}", 2, b"null", True)


def _seek(name: str, ordinal: float = 0.0, waited_s: float = 0.0, players: int = 2, **kw):
    pool = kw.pop("pool", (*POOL[:2], players, *POOL[3:]))
    recent = frozenset(f"account:{r}" for r in kw.pop("recent", ()))
    return Candidate(
        kw.pop("seek_id", "s-" + name),
        pool,
        name,
        name,
        players,
        ordinal,
        int(waited_s * 1000),
        recent,
    )


def _names(found: list[Table]) -> list[list[str]]:
    return [sorted(c.account for c in table.seeks) for table in found]


def test_the_range_widens_by_the_second():
    rules = PairingRules(base_range=3.0, widen_per_s=0.5, max_range=10.0)
    assert accepted_range(_seek("a"), rules) == 3.0
    assert accepted_range(_seek("a", waited_s=4), rules) == 5.0
    assert accepted_range(_seek("a", waited_s=100), rules) == 10.0


def test_both_seeks_must_accept_each_other():
    rules = PairingRules(base_range=3.0, widen_per_s=1.0)
    patient, newcomer = _seek("a", 0.0, waited_s=20), _seek("b", 10.0)
    assert tables([patient, newcomer], rules) == []  # the newcomer accepts 3 points only
    assert _names(tables([patient, _seek("b", 10.0, waited_s=7)], rules)) == [["a", "b"]]


def test_one_account_never_sits_twice_at_a_table():
    rules = PairingRules(base_range=100.0)
    found = tables([_seek("a", seek_id="1"), _seek("a", seek_id="2")], rules)
    assert found == []


def test_the_longest_waiting_is_seated_first_with_the_closest_rating():
    rules = PairingRules(base_range=100.0)
    found = tables(
        [_seek("a", 5.0, waited_s=1), _seek("b", 9.0), _seek("c", 6.0, waited_s=9)], rules
    )
    assert _names(found) == [["a", "c"]]


def test_a_repeat_waits_while_someone_else_of_the_pool_waits():
    rules = PairingRules(base_range=3.0, widen_per_s=0.0)
    a = _seek("a", 0.0, waited_s=5, recent=["b"])
    b = _seek("b", 1.0, waited_s=4, recent=["a"])
    c = _seek("c", 3.5)  # in b's range, not in a's
    assert _names(tables([a, b, c], rules)) == [["b", "c"]]
    assert _names(tables([a, b], rules)) == [["a", "b"]]  # nobody else: they play again


def test_tables_of_four_seat_four_accounts_of_one_pool():
    rules = PairingRules(base_range=100.0)
    seeks = [_seek(n, players=4) for n in "abcde"] + [_seek("x", players=3)]
    found = tables(seeks, rules)
    assert len(found) == 1 and len(found[0].seeks) == 4
    assert "x" not in _names(found)[0]


def test_pool_bots_fill_a_lone_seeks_table_after_the_wait():
    rules = PairingRules(pool_bots=("greedy", "random"), bot_wait_ms=10_000)
    bots = {(*POOL[:2], 3, *POOL[3:]): ["greedy", "random"]}
    lone = _seek("a", 20.0, waited_s=10, players=3)
    ordinals = {("keltis-card", "greedy"): 18.0, ("keltis-card", "random"): -5.0}
    found = bot_tables([lone], rules, bots, ordinals)
    assert found == [Table((lone,), ("greedy", "random"))]
    assert bot_tables([_seek("a", waited_s=9, players=3)], rules, bots, ordinals) == []


def _at(name: str, address: str, **kw) -> Candidate:
    found = _seek(name, **kw)
    return Candidate(**{**{f: getattr(found, f) for f in found.__slots__}, "household": address})


def test_two_accounts_of_one_address_never_sit_together():
    rules = PairingRules(base_range=100.0)
    alone = [_at("a", "203.0.113.5", waited_s=9), _at("b", "203.0.113.5")]
    assert tables(alone, rules) == []  # only they wait: they wait
    third = _at("c", "198.51.100.7", waited_s=1)
    assert _names(tables([*alone, third], rules)) == [["a", "c"]]
    later = [_at("b", "203.0.113.5"), _at("d", "198.51.100.8")]
    assert _names(tables(later, rules)) == [["b", "d"]]


def test_a_household_is_an_ipv4_address_or_an_ipv6_64():
    assert household("203.0.113.5") == "203.0.113.5"
    assert household("::ffff:203.0.113.5") == "203.0.113.5"
    assert household("2001:db8:1:2::1") == household("2001:db8:1:2:ffff::9")
    assert household("2001:db8:1:2::1") != household("2001:db8:1:3::1")
    assert household("unix-socket") == "unix-socket"
