"""The domain layer: what the app knows and does, below the web (no Flask)."""
