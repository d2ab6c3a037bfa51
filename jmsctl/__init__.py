"""jmsctl: Jakarta Messaging selectors and message dumps, as a library.

    import jmsctl
    sel = jmsctl.compile("JMSType = 'car' AND weight > 2500")
    sel.matches(jmsctl.plain_values({"JMSType": "car", "weight": 2600}))        # True
    for record in jmsctl.read_records("dump.ndjson"):
        if record.message is not None and sel.matches(record.message):
            print(record.message.get_jms_message_id())

Names are imported lazily, so that ``import jmsctl`` stays cheap for the command line.
"""

from __future__ import annotations

from importlib import import_module
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


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'jmsctl' has no attribute {name!r}")
    return getattr(import_module(module), name)
