"""The base of every mapping in ``osmia-config.yaml``: strict, closed, frozen."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, model_validator


class Section(BaseModel):
    """Base of every mapping in the file: strict types, unknown keys refused, frozen.

    Strict means no coercion: ``"10"`` is not an integer, ``1`` is not a
    boolean, ``10.0`` is not an integer (an integer is accepted for a number).
    """

    model_config = ConfigDict(
        strict=True,
        extra="forbid",
        frozen=True,
        allow_inf_nan=False,
        use_attribute_docstrings=True,
        hide_input_in_errors=True,
        validate_default=False,
    )

    @model_validator(mode="before")
    @classmethod
    def _null_is_all_defaults(cls, data: Any) -> Any:
        """A key given with no value (``memory:``, ``resources: null``) means all its defaults."""
        return {} if data is None else data
