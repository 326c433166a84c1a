"""The services' settings, read from the environment."""

from __future__ import annotations

import pytest

from services.config import TABLES_HELD, Settings


def test_tables_held_is_read_from_the_environment_and_must_be_positive(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("BW_TABLES_HELD", raising=False)
    assert Settings().tables_held == TABLES_HELD
    monkeypatch.setenv("BW_TABLES_HELD", "250")
    assert Settings().tables_held == 250
    monkeypatch.setenv("BW_TABLES_HELD", "0")
    with pytest.raises(ValueError, match="BW_TABLES_HELD"):
        Settings()
