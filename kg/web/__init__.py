"""The web layer: the API, the pages and the admin's graph pages. Each view parses its input,
calls one function of the layers below and presents the result."""
