"""Shared test settings: hypothesis profiles (ci is the default; JMSCTL_FUZZ=long for long runs)."""

import os
from collections.abc import Iterator

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


def pytest_collection_modifyitems(items: list) -> None:
    items.sort(key=lambda item: item.path.name in JVM_IN_PROCESS)  # stable: the order is kept otherwise


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
