"""Page numbers for every API list: `?page=` names a page, and an empty or repeated one is a
mistake answered 400, not silently page 1."""

from __future__ import annotations

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination


class StrictPageNumberPagination(PageNumberPagination):
    def get_page_number(self, request, paginator):
        values = request.query_params.getlist(self.page_query_param)
        if not values:
            return 1
        if len(values) > 1:
            raise ValidationError({self.page_query_param: ["give one page number"]})
        value = values[0]
        if not (value.isascii() and value.isdigit() and int(value) >= 1):
            raise ValidationError({self.page_query_param: ["a page number: 1, 2, 3…"]})
        return value

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_query_param:
                parameter["schema"] = {"type": "integer", "minimum": 1}
        return parameters
