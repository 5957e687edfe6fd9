"""The Cardavia variant compiler: YAML variant files to scorers and settlement rules.

The folders follow the pipeline (``variant.py`` runs it, ``registry.py`` finds files):

* ``model/``: tiles, groups and hands, what every stage talks about;
* ``loading/``: the file read with positions, the JSON Schema, the compile cache;
* ``language/``: the expression language, from text to typed IR to Python;
* ``shapes/``: the shape kinds, which arrange hands and find their waits;
* ``scoring/``: contexts, pattern tables, generated scorers and the scorer;
* ``settlement.py``: the payment rules.

Public API::

    from cardavia.compiler import load_variant, VariantError
    variant = load_variant("hk")            # a shipped name or a path to a YAML file
    result = variant.scorer.score(hand)     # hand from compiler.model.hand.parse_notation / from_json
"""

from .errors import EvaluationError, Problem, VariantError
from .model.hand import Hand, HandError, Meld, from_json, parse_notation
from .registry import load_variant, shipped_variants, variants_dir
from .variant import CompiledVariant, compile_file, compile_text

__all__ = [
    "CompiledVariant", "EvaluationError", "Hand", "HandError", "Meld", "Problem", "VariantError", "compile_file",
    "compile_text", "from_json", "load_variant", "parse_notation", "shipped_variants", "variants_dir",
]
