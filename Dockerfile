# One image for web, worker and beat (see docker-compose.yml); configured only by environment.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 GROUNDWORK_VAR_DIR=/app/var
WORKDIR /app
RUN useradd --create-home groundwork
COPY pyproject.toml requirements.lock README.md manage.py ./
COPY config ./config
COPY kg ./kg
COPY chat ./chat
COPY artifacts ./artifacts
COPY orgmemory ./orgmemory
# Every dependency at the version in requirements.lock (constraints: nothing newer slips in).
RUN pip install --no-cache-dir -c requirements.lock . \
    && DEBUG=true python manage.py collectstatic --noinput \
    && chown -R groundwork /app/var
USER groundwork
EXPOSE 8000
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3"]
