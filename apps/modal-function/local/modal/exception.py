"""Exception names of modal.exception that src/app.py catches."""


class Error(Exception):
    pass


class NotFoundError(Error):
    pass


class RemoteError(Error):
    pass


class OutputExpiredError(Error):
    pass
