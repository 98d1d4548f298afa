"""Layout templates and the Jinja2 they render with: a card's look as named regions in
millimetres, what boards, tokens and score pads share, the sandboxed environment and its bounds."""
