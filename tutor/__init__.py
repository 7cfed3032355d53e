"""tutor: an interactive rules tutor for Hokm, All Fours (classic) and All Fours (Trinidad).

The rule engine lives in :mod:`tutor.engine` (pure Python, no web imports); the scenario
contract of ``tutor solve`` and ``POST /api/v1/solve`` in :mod:`tutor.solve`.
"""

__version__ = "0.1.0"
