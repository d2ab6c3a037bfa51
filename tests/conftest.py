"""Shared test settings: hypothesis profiles (ci is the default; JMSCTL_FUZZ=long for long runs)."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=20000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("JMSCTL_FUZZ", "ci"))
