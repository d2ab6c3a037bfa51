"""Exceptions named after the javadoc's, so Java users recognise them."""

from __future__ import annotations

from collections.abc import Sequence

from jmsctl.diagnostics import Diagnostic


class JMSException(Exception):
    """Root of jmsctl's API errors, as jakarta.jms.JMSException is of Java's."""


class InvalidSelectorException(JMSException):
    """A selector that is not valid: carries every error diagnostic, in source order."""

    def __init__(self, selector: str, diagnostics: Sequence[Diagnostic]) -> None:
        self.selector = selector
        self.diagnostics = tuple(diagnostics)
        first = self.diagnostics[0] if self.diagnostics else None
        super().__init__(f"{first.code}: {first.message}" if first else "invalid selector")


class MessageFormatException(JMSException):
    """A property cannot be read as the requested type (the conversion table refuses it)."""


class MessageNotWriteableException(JMSException):
    """Properties of a received message are read-only until clearProperties."""


class NumberFormatException(ValueError):
    """Java's NumberFormatException: a String that the primitive's valueOf does not accept
    (a runtime exception in Java, not a JMSException)."""


class NullPointerException(ValueError):
    """Java's NullPointerException, e.g. Float.valueOf(null) for an absent property read as float."""


class IllegalArgumentException(ValueError):
    """Java's IllegalArgumentException: a property name that is None, empty or not an identifier."""


class IllegalStateException(RuntimeError):
    """Java's IllegalStateException."""
