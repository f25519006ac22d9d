"""The attribution HTTP service (litestar). Built by a later issue; never imported by
``attribution``."""
