import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# The compile cache (compiler/loading/cache.py) goes to a fresh folder for each test session,
# so tests never read or fill the developer's own cache.
import atexit  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402

if "CARDAVIA_CACHE_DIR" not in os.environ:
    _cache = tempfile.mkdtemp(prefix="cardavia-test-cache-")
    os.environ["CARDAVIA_CACHE_DIR"] = _cache
    atexit.register(shutil.rmtree, _cache, True)
