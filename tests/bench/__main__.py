"""``python -m tests.bench [SECTION ...]``: every section, or the ones named."""

from tests.bench import main

main()
