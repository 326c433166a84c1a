"""What every game shares: the contract, chance, errors, digests and board mechanics."""

from engines.core.canonical import canonical_bytes, digest
from engines.core.contract import Engine, GameInfo, OptionSpec, Outcome, TableConfig
from engines.core.errors import RuleViolation
from engines.core.rng import Rng

__all__ = [
    "Engine",
    "GameInfo",
    "OptionSpec",
    "Outcome",
    "Rng",
    "RuleViolation",
    "TableConfig",
    "canonical_bytes",
    "digest",
]
