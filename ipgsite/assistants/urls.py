"""For AI assistants, outside the language prefixes: /llms.txt and the MCP server."""

from django.urls import path

from . import views

app_name = "assistants"

urlpatterns = [
    path("llms.txt", views.llms_txt, name="llms-txt"),
    path("mcp", views.mcp_endpoint, name="mcp"),
]
