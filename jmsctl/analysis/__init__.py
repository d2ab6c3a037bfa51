"""Analysis above the language and the message model: questions about selectors that need messages.

The portability lint (every dialect's verdict on witness messages), the witness search, naming what
differs and the rewrites that read the same everywhere. ``selector/`` and ``messages/`` never import
this package; it imports both.
"""
