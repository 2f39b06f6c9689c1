"""``python -m polyforms.cli``: the same as the ``polyforms`` command."""

if __name__ == "__main__":
    from polyforms.cli import main

    raise SystemExit(main())
