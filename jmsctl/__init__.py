"""jmsctl: Jakarta Messaging selectors and message dumps, as a library.

    import jmsctl
    sel = jmsctl.compile("JMSType = 'car' AND weight > 2500")
    sel.matches(jmsctl.plain_values({"JMSType": "car", "weight": 2600}))        # True
    for record in jmsctl.read_records("dump.ndjson"):
        if record.message is not None and sel.matches(record.message):
            print(record.message.get_jms_message_id())

Names are imported lazily, so that ``import jmsctl`` stays cheap for the command line.
"""

# No ``from __future__ import annotations`` here: that imports the __future__ module, a step of the start-up
# before the SIGINT handler below could take a Ctrl-C (seen under load: a trace from __future__.py).
import _signal  # type: ignore[import-not-found]  # the C module: signal.py would import enum first
import os
import sys


def _interrupted_while_starting(signum: int, frame: object) -> None:
    """Ctrl-C while the command line starts (Python imports it: most of its start-up): nothing is open
    yet, so the process ends now, as the running command would (one line, status 130), rather than
    with a trace from inside an import. jmsctl.cli.app removes it once loaded."""
    os.write(2, b"\n")
    os._exit(130)


def _command_line() -> bool:
    """Whether this process is the jmsctl command (the console script, or ``python -m jmsctl``), not a
    program importing the library: only then does the package take SIGINT at its first line."""
    if sys.argv and os.path.basename(sys.argv[0]) == "jmsctl":
        return True
    orig = list(getattr(sys, "orig_argv", []))
    return "-mjmsctl" in orig or ("-m" in orig and orig[orig.index("-m") + 1:orig.index("-m") + 2] == ["jmsctl"])


if _command_line():
    try:
        if _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:  # not when ignored (a background job)
            _signal.signal(_signal.SIGINT, _interrupted_while_starting)
    except ValueError:  # not the main thread: signals are not ours
        pass

from importlib import import_module  # noqa: E402

TYPE_CHECKING = False  # typing itself is not imported: 2 ms of every start-up, --version's included
if TYPE_CHECKING:
    from typing import Any

_EXPORTS = {
    "compile": "jmsctl.selector",
    "analyze": "jmsctl.selector",
    "evaluate": "jmsctl.selector",
    "dialects": "jmsctl.selector",
    "DIALECTS": "jmsctl.selector",
    "Selector": "jmsctl.selector",
    "Message": "jmsctl.messages.model",
    "JavaValue": "jmsctl.messages.contract",
    "SerializedObject": "jmsctl.messages.contract",
    "DEFAULT_DELIVERY_MODE": "jmsctl.messages.contract",
    "DEFAULT_PRIORITY": "jmsctl.messages.contract",
    "DEFAULT_TIME_TO_LIVE": "jmsctl.messages.contract",
    "DEFAULT_DELIVERY_DELAY": "jmsctl.messages.contract",
    "PERSISTENT": "jmsctl.messages.contract",
    "NON_PERSISTENT": "jmsctl.messages.contract",
    "decode_message": "jmsctl.messages.decode",
    "message_json": "jmsctl.messages.encode",
    "read_records": "jmsctl.messages.loader",
    "plain_values": "jmsctl.adapters",
    "SelectorValues": "jmsctl.adapters",
    "JType": "jmsctl.values",
    "JMSException": "jmsctl.exceptions",
    "InvalidSelectorException": "jmsctl.exceptions",
    "MessageFormatException": "jmsctl.exceptions",
    "MessageNotWriteableException": "jmsctl.exceptions",
    "NumberFormatException": "jmsctl.exceptions",
    "NullPointerException": "jmsctl.exceptions",
    "IllegalArgumentException": "jmsctl.exceptions",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> "Any":
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'jmsctl' has no attribute {name!r}")
    return getattr(import_module(module), name)
