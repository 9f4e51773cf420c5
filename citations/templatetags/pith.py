from django import template

register = template.Library()


@register.filter
def words(value) -> str:
    """'expression_of_concern' -> 'expression of concern'."""
    return str(value).replace("_", " ")
