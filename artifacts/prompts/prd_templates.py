"""The offline writer's sentences: a node's claim by its type, a relation's by its kind, in
English and Russian. The writer fills them with labels; the claim check (artifacts.checks)
reads their own words as structure, not as something a quote must say."""

NODE_TEMPLATES = {
    "en": {
        "product": "Product: {a}.",
        "insight": "Insight: {a}.",
        "problem": "Problem: {a}.",
        "market": "Target market: {a}.",
        "segment": "Target segment: {a}.",
        "job": "Job to be done: {a}.",
        "trigger": "Trigger: {a}.",
        "pain": "Pain: {a}.",
        "alternative": "Current alternative: {a}.",
        "competitor": "Competitor: {a}.",
        "goal": "Goal: {a}.",
        "metric": "Metric: {a}.",
        "metric_value": "Metric: {a} — {v}.",
        "feature": "Requirement: {a}.",
        "risk": "Risk: {a}.",
    },
    "ru": {
        "product": "Продукт: {a}.",
        "insight": "Инсайт: {a}.",
        "problem": "Проблема: {a}.",
        "market": "Целевой рынок: {a}.",
        "segment": "Целевой сегмент: {a}.",
        "job": "Задача пользователя: {a}.",
        "trigger": "Триггер: {a}.",
        "pain": "Боль: {a}.",
        "alternative": "Текущая альтернатива: {a}.",
        "competitor": "Конкурент: {a}.",
        "goal": "Цель: {a}.",
        "metric": "Метрика: {a}.",
        "metric_value": "Метрика: {a} — {v}.",
        "feature": "Требование: {a}.",
        "risk": "Риск: {a}.",
    },
}
EDGE_TEMPLATES = {
    "en": {
        "targets_market": "{s} targets the market: {t}.",
        "serves": "{s} serves the segment: {t}.",
        "values": "Segment {s} values: {t}.",
        "has_feature": "{s} has the feature: {t}.",
        "experiences": "Segment {s} experiences the pain: {t}.",
        "has_job": "Segment {s} has the job: {t}.",
        "triggered_by": "Segment {s} starts looking for a solution when: {t}.",
        "uses": "Segment {s} currently uses: {t}.",
        "blocks": "The pain {s} blocks the job: {t}.",
        "caused_by": "The trigger {s} comes with the pain: {t}.",
        "addresses": "{s} addresses the pain: {t}.",
        "offers": "Competitor {s} offers: {t}.",
        "competes_with": "Competitor {s} competes with {t}.",
        "targets": "Competitor {s} targets the segment: {t}.",
        "solves": "Requirement: {s} — solves the pain: {t}.",
        "supports": "Requirement: {s} — supports the job: {t}.",
        "measured_by": "{s} is measured by the metric: {t}.",
        "threatens": "Risk: {s} — threatens: {t}.",
    },
    "ru": {
        "targets_market": "{s} ориентирован на рынок: {t}.",
        "serves": "{s} обслуживает сегмент: {t}.",
        "values": "Сегмент {s} ценит: {t}.",
        "has_feature": "{s} включает функцию: {t}.",
        "experiences": "Сегмент {s} испытывает боль: {t}.",
        "has_job": "Сегмент {s} решает задачу: {t}.",
        "triggered_by": "Сегмент {s} начинает искать решение, когда: {t}.",
        "uses": "Сегмент {s} сейчас использует: {t}.",
        "blocks": "Боль {s} мешает задаче: {t}.",
        "caused_by": "Триггер {s} связан с болью: {t}.",
        "addresses": "{s} решает проблему: {t}.",
        "offers": "Конкурент {s} предлагает: {t}.",
        "competes_with": "Конкурент {s} конкурирует с {t}.",
        "targets": "Конкурент {s} ориентирован на сегмент: {t}.",
        "solves": "Требование: {s} — решает боль: {t}.",
        "supports": "Требование: {s} — помогает в задаче: {t}.",
        "measured_by": "{s} измеряется метрикой: {t}.",
        "threatens": "Риск: {s} — угрожает: {t}.",
    },
}
# Sentences built from three grounded parts (a user story) or from a relation read as a
# criterion (acceptance): the writer fills them only where the relations' quotes name the nodes.
STORY_TEMPLATES = {
    "en": {
        "story": "As {s}, I want {f}, so that {j}.",
        "acceptance": "{f} is accepted when {p} no longer happens.",
    },
    "ru": {
        "story": "Как {s}, я хочу {f}, чтобы {j}.",
        "acceptance": "{f} принято, когда {p} больше не происходит.",
    },
}
