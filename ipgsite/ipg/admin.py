"""Admin building blocks of the core. The content's own admin is the translators' and editors' workflow:
`ipgsite.editing.admin`, where every save goes through `editing.writing`."""

from django.contrib import admin


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows derived from the text (links, statuses, history): shown, never typed in."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
