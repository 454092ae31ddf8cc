"""The gettext catalogues of the lecture's languages (see attncore.i18n)."""
