from django.dispatch import Signal

# Sent once after `loadcontent` (or anything else) has replaced content in bulk,
# inside its transaction; receivers rebuild what they derive from the text.
content_loaded = Signal()
