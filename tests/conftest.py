"""Shared test settings: hypothesis profiles (ci is the default; JMSCTL_FUZZ=long for long runs), the one
live broker and the one Spark session of the test run, and the ``slow`` marker of the quick subset
(``python -m pytest -m "not slow"``, README "Tests and corpora")."""

import os
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=20000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("JMSCTL_FUZZ", "ci"))

# Modules that start a JVM inside the pytest process (JPype, for the JMS transport of a live broker)
# run last: a process with a JVM in it cannot fork safely (a forked child can hang on a lock a JVM
# thread held), and the parallel filter's tests fork. jmsctl itself then reads in one process
# (filter/parallel.py available()), which would leave the parallel path untested after them.
JVM_IN_PROCESS = ("test_brokers_live.py", "test_brokers_hardened.py")


# The quick subset for development, ``python -m pytest -m "not slow"``: what starts a JVM, a broker, a
# shell or a benchmark, and the longest tests of the other modules (from ``--durations``), are marked
# ``slow`` here. CI runs everything (``python -m pytest``).
SLOW_MODULES = frozenset({
    "test_actions_live.py", "test_activemq_differential.py", "test_artemis_bench_smoke.py", "test_artemis_xml_differential.py",
    "test_bench_smoke.py", "test_brokers_hardened.py", "test_brokers_live.py", "test_completion.py", "test_filter_bench_smoke.py",
    "test_identifiers_java.py", "test_parallel_jvm.py", "test_profile_bench_smoke.py", "test_scan_memory.py", "test_spark.py",
    "test_spark_artemis_xml.py", "test_spark_cluster.py", "test_spark_dialects.py", "test_spark_filter_options.py",
    "test_spark_parity.py", "test_spark_profile.py", "test_view.py",
})
SLOW_TESTS: tuple[str, ...] = ()  # node ids (a prefix: every parameter of a test) of the slowest tests elsewhere


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: left out of the quick subset (pytest -m 'not slow'); CI runs every test")


def pytest_collection_modifyitems(items: list) -> None:
    items.sort(key=lambda item: item.path.name in JVM_IN_PROCESS)  # stable: the order is kept otherwise
    for item in items:
        if item.path.name in SLOW_MODULES or item.nodeid.split("/")[-1].startswith(SLOW_TESTS):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """One live ActiveMQ for the session (tests/activemq_broker.py), shared by the broker test modules."""
    from tests import activemq_broker

    reason = activemq_broker.missing()
    if reason is not None:
        pytest.skip(reason)
    b = activemq_broker.Broker(tmp_path_factory.mktemp("activemq"))
    try:
        b.wait()
        yield b
    finally:
        b.stop()


@pytest.fixture(scope="session")
def spark() -> Any:
    """One local Spark session for every test that needs one: its JVM starts once a run (``get_session``
    returns the active session; nothing stops it before the end)."""
    from jmsctl.spark.session import get_session

    return get_session("local[2]")
