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
