# Decision Boundary Lab in a container: `docker build -t dbl . && docker run -p 8501:8501 dbl`, or
# `docker compose up -d --build` for several replicas behind nginx (compose.yaml).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1

# the app runs as this user, not root
RUN useradd --create-home --uid 10001 dbl
WORKDIR /app

# the whole project (less .dockerignore's list), then its dependencies as requirements.txt names them
# (pyproject.toml declares them; requirements.txt installs the project)
COPY . .
RUN pip install --no-cache-dir -r requirements.txt
# static/ receives plotly.js, KaTeX and the renderer's modules when the app starts (glue/scene_chart.py)
RUN mkdir -p static && chown -R dbl:dbl static

USER dbl
EXPOSE 8501
# Streamlit's own health endpoint; python is there (the slim image has no curl)
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request as u; sys.exit(u.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4).read() != b'ok')"]
# DBL_WORKERS: build workers per container (default: the cores its CPU quota allows; 0 builds in the server)
CMD ["streamlit", "run", "app.py", "--server.address", "0.0.0.0", "--server.port", "8501", "--server.headless", "true", "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
