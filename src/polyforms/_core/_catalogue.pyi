def format_chunk(
    packed: bytes,
    n: int,
    dim: int,
    fmt: str,
    kind: str,
    first_index: int = 1,
    first_in_file: bool = True,
    counted: bool = False,
) -> bytes: ...
def filter_chunk(
    packed: bytes, n: int, dim: int, holes: int, symmetry: str | int | None
) -> bytes: ...
