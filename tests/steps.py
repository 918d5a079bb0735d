"""After-write steps that record each call, then run the real step: `steps.wrap(settings.AFTER_WRITE)` names them,
for `override_settings(AFTER_WRITE=[f"steps.{name}" for name in …])`."""

from django.utils.module_loading import import_string

calls = []  # the dotted path of each real step, in the order they ran


def wrap(paths):
    names = []
    for index, path in enumerate(paths):
        name = f"step_{index}"

        def recorded(batch, path=path):
            calls.append(path)
            import_string(path)(batch)

        globals()[name] = recorded
        names.append(name)
    return names


def shout(text, html, page):
    """A text layer that marks every text it is given (tests of settings.READING_LAYERS)."""
    from django.utils.safestring import mark_safe

    return mark_safe(f'{html}<b class="layer-mark"></b>')
