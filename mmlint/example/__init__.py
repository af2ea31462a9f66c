"""The bundled example store used by the quick start (``mmlint check --example``)."""
