"""The one compiled part: jmsctl.filter._bytecount (the filter's key counts, jmsctl/filter/_bytecount.c).
Optional: where it does not compile (no C compiler, no Python headers), the package installs without
it and jmsctl.filter.keycount counts with ``re`` instead, the same counts."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("jmsctl.filter._bytecount", ["jmsctl/filter/_bytecount.c"], optional=True)])
