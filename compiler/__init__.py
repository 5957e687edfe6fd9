"""The Cardavia variant compiler: YAML variant files to scorers and settlement rules.

Public API::

    from compiler import load_variant, VariantError
    variant = load_variant("hk")            # a shipped name or a path to a YAML file
    result = variant.scorer.score(hand)     # hand from compiler.hand.parse_notation / from_json
"""

from .errors import Problem, VariantError
from .hand import Hand, HandError, Meld, from_json, parse_notation
from .registry import load_variant, shipped_variants, variants_dir
from .variant import CompiledVariant, compile_file, compile_text

__all__ = [
    "CompiledVariant", "Hand", "HandError", "Meld", "Problem", "VariantError", "compile_file", "compile_text",
    "from_json", "load_variant", "parse_notation", "shipped_variants", "variants_dir",
]
