"""The domain layer: what the tutor keeps and computes about learners, teachers and classes,
below the web and beside the content (no Flask here).

Layers, lowest first: :mod:`tutor.engine` < :mod:`tutor.i18n` < :mod:`tutor.content` < this
package < :mod:`tutor.export`, :mod:`tutor.web` < the CLI. ``tests/test_layers.py`` checks them.
"""
