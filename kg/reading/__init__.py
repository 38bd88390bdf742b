"""The read side: the research as views (context, node trail, research pages, export), built
from the graph for the API, the admin, the pages, chat and the PRD alike. Nothing here writes."""
