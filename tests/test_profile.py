"""jmsctl.analysis.profile / sketches / shape: counts that add up, exact while small, bounded and
honest (labelled estimates within their error) when large."""

from __future__ import annotations

import hashlib
import math
import random
from collections import Counter

import orjson
import pytest

from jmsctl.analysis.profile import CAPACITY, LONG_STRING, Profiler, key_value, profile_records, value_key
from jmsctl.analysis.shape import Shape
from jmsctl.analysis.sketches import HLL_ERROR, HLL_M, Values, hll_estimate, hll_rank, key_hash
from jmsctl.messages.loader import read_records
from jmsctl.messages.model import Message
from jmsctl.values import BOOLEAN, BYTE, DOUBLE, FLOAT, INT, LONG, SHORT, STRING, JType, to_f32


def _msg(props: dict, headers: dict | None = None, body_type: str = "message", nulls: tuple[str, ...] = ()) -> Message:
    return Message(headers=headers or {}, properties=props, body_type=body_type, null_properties=nulls)


# ----- sketches ----------------------------------------------------------------------------------


def test_key_hash_is_md5_prefix() -> None:
    # Spark computes conv(substr(md5(key), 1, 16), 16, 10): the same 64 bits.
    assert key_hash("int:5") == int(hashlib.md5(b"int:5").hexdigest()[:16], 16)
    assert key_hash("String:gr\u00f6\u00dfe") == int(hashlib.md5("String:gr\u00f6\u00dfe".encode()).hexdigest()[:16], 16)


def test_hll_rank() -> None:
    assert hll_rank(0) == 53
    assert hll_rank(1) == 52
    assert hll_rank((1 << 52) - 1) == 1
    assert hll_rank(1 << 51) == 1
    assert hll_rank(1 << 50) == 2
    assert hll_rank(0xFFF << 52) == 53  # the index bits do not count


def test_distinct_exact_then_estimated() -> None:
    d = Values(capacity=100)
    for i in range(100):
        d.add(f"int:{i}")
        d.add(f"int:{i}")  # repeats count, but are one value
    assert d.exact and d.distinct == 100 and d.top(1) == [("int:0", 2)]
    d.add("int:100")
    assert not d.exact
    assert d.size() == HLL_M + len(d.counts) <= HLL_M + 100
    assert abs(d.distinct - 101) <= 3


@pytest.mark.parametrize("n", [2_000, 30_000, 200_000])
def test_hll_estimate_within_four_standard_errors(n: int) -> None:
    d = Values()
    for i in range(n):
        d.add(f"String:id-{i}")
        if i % 3 == 0:
            d.add(f"String:id-{i // 2}")  # values seen again: counted, not registered twice
    assert not d.exact
    assert abs(d.distinct - n) <= 4 * HLL_ERROR * n, d.distinct


def test_hll_estimate_of_dict_registers_equals_array() -> None:
    rng = random.Random(3)
    regs = bytearray(HLL_M)
    for _ in range(5000):
        h = rng.getrandbits(64)
        regs[h >> 52] = max(regs[h >> 52], hll_rank(h))
    assert hll_estimate(regs) == hll_estimate({i: r for i, r in enumerate(regs) if r})


def test_frequent_exact_while_few_values() -> None:
    f = Values(5)
    stream = ["a"] * 7 + ["b"] * 3 + ["c", "d", "e"] * 2
    for k in stream:
        f.add(k)
    assert f.exact
    assert f.top(3) == [("a", 7), ("b", 3), ("c", 2)]


def test_frequent_guarantees_on_a_skewed_stream() -> None:
    rng = random.Random(7)
    stream = [f"hot{i}" for i in range(5) for _ in range(2000 - 300 * i)] + [f"cold{rng.randrange(50_000)}" for _ in range(40_000)]
    rng.shuffle(stream)
    truth = Counter(stream)
    f = Values(50)
    for k in stream:
        f.add(k)
    assert not f.exact and len(f.counts) <= 50
    assert f.dropped <= len(stream) // 51  # Misra-Gries' bound
    for k, n in f.counts.items():
        assert n <= truth[k] <= n + f.dropped
    for k, n in truth.items():
        if n > len(stream) / 51:  # every value more frequent than n/(c+1) is kept
            assert k in f.counts
    assert [k for k, _ in f.top(5)] == [f"hot{i}" for i in range(5)]


# ----- keys --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "key"),
    [
        ((INT, 5), "int:5"),
        ((LONG, 5), "long:5"),
        ((BYTE, -3), "byte:-3"),
        ((SHORT, 300), "short:300"),
        ((BOOLEAN, True), "boolean:true"),
        ((FLOAT, to_f32(0.1)), "float:0x1.99999ap-4"),
        ((DOUBLE, 0.1), "double:0x1.999999999999ap-4"),
        ((DOUBLE, 1.0), "double:0x1.0p0"),
        ((DOUBLE, 5e-324), "double:0x0.0000000000001p-1022"),
        ((DOUBLE, -0.0), "double:-0x0.0p0"),
        ((DOUBLE, math.nan), "double:NaN"),
        ((FLOAT, -math.inf), "float:-Infinity"),
        ((STRING, "red"), "String:red"),
        ((STRING, ""), "String:"),
        ((STRING, "a:b"), "String:a:b"),
    ],
)
def test_value_keys_round_trip(value: tuple, key: str) -> None:
    assert value_key(value) == key
    t, v, cut = key_value(key)
    assert t is value[0] and not cut
    assert v == value[1] or (math.isnan(v) and math.isnan(value[1]))
    if isinstance(v, float):
        assert math.copysign(1, v) == math.copysign(1, value[1])


def test_long_strings_keyed_by_prefix_and_digest() -> None:
    a, b = "x" * 300 + "a", "x" * 300 + "b"
    assert value_key((STRING, a)) != value_key((STRING, b))
    assert len(value_key((STRING, a))) < LONG_STRING + 50
    _t, v, cut = key_value(value_key((STRING, a)))
    assert cut and v == "x" * LONG_STRING
    assert not key_value(value_key((STRING, "y" * LONG_STRING)))[2]


# ----- the profile -------------------------------------------------------------------------------


def test_profile_counts_add_up_and_types_are_kept_apart() -> None:
    p = Profiler()
    p.add(_msg({"w": (INT, 5), "c": (STRING, "red")}, {"JMSPriority": 4, "JMSDeliveryMode": 2}, "text"))
    p.add(_msg({"w": (LONG, 5)}, {"JMSPriority": 4, "JMSDeliveryMode": "NON_PERSISTENT"}, "text", nulls=("c",)))
    p.add(_msg({"w": (STRING, "5")}, {}, "map"))
    p.rejected += 1
    r = p.result()
    assert (r.read, r.messages, r.rejected) == (4, 3, 1)
    assert dict(r.bodies) == {"text": 2, "map": 1}
    doc = r.to_json()
    w, c = (next(e for e in doc["properties"] if e["name"] == n) for n in ("w", "c"))
    assert w["types"] == {"int": 1, "long": 1, "string": 1}
    assert (w["present"], w["absent"], w["null"]) == (3, 0, 0)
    assert w["distinct"] == {"count": 3, "exact": True}
    assert (c["present"], c["absent"], c["null"]) == (1, 2, 1)
    mode = next(e for e in doc["headers"] if e["name"] == "JMSDeliveryMode")
    assert mode["types"] == {"string": 2} and mode["absent"] == 1
    assert [v["value"] for v in mode["most_common"]["values"]] == ["NON_PERSISTENT", "PERSISTENT"]  # ties by key


def test_profile_of_sample_adds_up() -> None:
    r = profile_records(read_records("samples/orders.ndjson"))
    assert r.read == r.messages + r.rejected == 3000
    assert sum(n for _, n in r.bodies) == r.messages
    for entry in (*r.properties, *r.headers):
        assert entry.present + entry.absent == r.messages
        assert sum(n for _, n in entry.types) == entry.present
        assert entry.null <= entry.absent
        if entry.common_exact:
            assert sum(v.count for v in entry.common) <= entry.present
    messages = [rec.message for rec in read_records("samples/orders.ndjson") if rec.message]
    for name in ("color", "weight"):
        entry = next(e for e in r.properties if e.name == name)
        truth = Counter(value_key(m.properties[name]) for m in messages if name in m.properties)
        if len(truth) <= CAPACITY:  # few values: everything exact
            assert entry.distinct == len(truth) and entry.distinct_exact and entry.common_exact
            assert [(v.key, v.count) for v in entry.common] == sorted(truth.items(), key=lambda kv: (-kv[1], kv[0]))[:10]
        else:  # weight: 1,144 values, past both bounds: estimates, within what they say
            assert not entry.distinct_exact and abs(entry.distinct - len(truth)) <= 4 * HLL_ERROR * len(truth)
            assert not entry.common_exact
            for v in entry.common:
                assert v.count <= truth[v.key] <= v.count + entry.common_slack


def test_profile_json_is_plain_json() -> None:
    p = Profiler()
    p.add(_msg({"x": (DOUBLE, math.nan), "y": (FLOAT, math.inf), "z": (STRING, "q" * 500)}))
    doc = p.result().to_json()
    text = orjson.dumps(doc)  # NaN and infinities as FORMAT.md's strings: valid JSON
    values = {e["name"]: e["most_common"]["values"][0] for e in orjson.loads(text)["properties"]}
    assert values["x"] == {"type": "double", "value": "NaN", "count": 1}
    assert values["y"] == {"type": "float", "value": "Infinity", "count": 1}
    assert values["z"]["truncated"] is True and len(values["z"]["value"]) == LONG_STRING


def test_profile_memory_is_bounded_per_name() -> None:
    """A large generated stream: what the summaries hold stops growing (per name: counters and
    hashes or registers), whatever the number of messages; the estimates stay labelled."""
    p = Profiler()
    held = []
    for i in range(60_000):
        p.add(_msg({"id": (LONG, i), "kind": (STRING, f"k{i % 7}"), "v": (DOUBLE, i / 3)}, {"JMSMessageID": f"ID:{i}"}))
        if i in (10_000, 30_000, 59_999):
            held.append(p.held())
    bound = 4 * (HLL_M + CAPACITY)  # four names: id, kind, v, JMSMessageID
    assert all(h <= bound for h in held), held  # 60,000 distinct ids and doubles, far more than the bound
    r = p.result()
    ident = next(e for e in r.properties if e.name == "id")
    assert not ident.distinct_exact and abs(ident.distinct - 60_000) <= 4 * HLL_ERROR * 60_000
    assert not ident.common_exact
    kind = next(e for e in r.properties if e.name == "kind")
    assert kind.distinct_exact and kind.distinct == 7 and kind.common_exact


# ----- the shape ---------------------------------------------------------------------------------


def test_shape_from_profile_and_from_json_agree() -> None:
    p = Profiler()
    p.add(_msg({"w": (INT, 1), "JMSPriority": (INT, 3)}, {"JMSPriority": 4, "JMSType": "car"}))
    p.add(_msg({"w": (STRING, "x")}, {"JMSPriority": 1}, nulls=("n",)))
    profile = p.result()
    shape = Shape.from_profile(profile)
    assert shape.types("w") == frozenset({INT, STRING}) and not shape.may_be_absent("w")
    assert shape.types("n") == frozenset() and shape.may_be_absent("n")  # only ever JSON null
    assert shape.types("JMSPriority") == frozenset({JType.INT}) and not shape.may_be_absent("JMSPriority")  # the header's
    assert shape.may_be_absent("JMSType") and shape.types("JMSType") == frozenset({STRING})
    assert shape.may_be_absent("JMSCorrelationID") and "JMSCorrelationID" in shape  # never in the dump
    assert shape.may_be_absent("nowhere") and "nowhere" not in shape
    assert Shape.from_json(orjson.loads(orjson.dumps(profile.to_json()))) == shape
    with pytest.raises(ValueError, match="not a jmsctl profile"):
        Shape.from_json({"findings": []})
