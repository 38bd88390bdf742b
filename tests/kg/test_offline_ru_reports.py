"""Russian bug reports in the shapes issue templates give them: the offline extractor must take
the problem told, and nothing from the template around it (expected behaviour, steps,
environment, check boxes, requests to the maintainers). Every report here is invented."""

from __future__ import annotations

import pytest

from kg.llm.offline import lexicon_ru
from kg.llm.offline.extractor import extract_offline
from kg.llm.offline.report_layout import mask_layout, sections, steps
from kg.llm.prompts.extraction_models import ExtractionRequest, ExtractionResponse


def _extract(text: str) -> ExtractionResponse:
    return extract_offline(ExtractionRequest(text=text, language="ru", product=""))


def _nodes(text: str) -> list[tuple[str, str]]:
    return [(n.type, n.label) for n in _extract(text).nodes]


def _labels(text: str, node_type: str) -> list[str]:
    return [n.label for n in _extract(text).nodes if n.type == node_type]


def test_expected_behaviour_under_a_heading_is_no_pain() -> None:
    text = (
        "Панель вывода пустая\n\n"
        "### Ожидаемое поведение\n"
        "Окно вывода больше не закрывается само и не пропадает.\n\n"
        "### Фактическое поведение\n"
        "Панель вывода остаётся пустой, текст не появляется.\n"
    )
    pains = _labels(text, "pain")
    assert pains
    assert not any("закрывается" in p or "пропадает" in p for p in pains)


def test_expected_result_as_an_inline_label_is_no_pain() -> None:
    text = (
        "Уведомления возвращаются\n\n"
        "Я закрываю уведомление, но оно появляется снова. "
        "Ожидаемое поведение: закрытое уведомление больше не показывается."
    )
    assert not any("показывается" in p for p in _labels(text, "pain"))


def test_environment_section_and_form_fields_say_nothing() -> None:
    text = (
        "Редактор зависает при поиске\n\n"
        "Глобальный поиск зависает, и редактор перестаёт отвечать.\n\n"
        "Окружение:\n"
        "Windows 10, не обновлялась с прошлого года\n"
        "ОС: Ubuntu 22.04\n"
        "Версия VS Code: 1.85.0\n"
    )
    answer = _extract(text)
    assert all("Windows" not in n.quote and "Ubuntu" not in n.quote for n in answer.nodes)
    assert not any("не обновлялась" in n.label for n in answer.nodes)


def test_a_template_check_box_is_no_pain() -> None:
    text = (
        "Не работает переход к определению\n\n"
        "- [x] Я проверил, что проблема не исчезает с отключёнными расширениями\n\n"
        "F12 на функции ничего не делает."
    )
    pains = _labels(text, "pain")
    assert pains
    assert not any("расширени" in p for p in pains)


def test_where_a_problem_reproduces_is_no_pain() -> None:
    text = (
        "Не отображается дерево тестов\n\n"
        "Панель тестирования пустая.\n\n"
        "Проблема воспроизводится на двух компьютерах."
    )
    assert not any("воспроизводится" in p for p in _labels(text, "pain"))


def test_a_request_to_the_maintainers_is_no_pain() -> None:
    text = (
        "Пропадает история терминала\n\n"
        "После перезагрузки окна история команд в терминале очищается. "
        "Пожалуйста, исправьте это.\n"
        "Можно ли добавить предупреждение вместо аварийного закрытия?"
    )
    pains = _labels(text, "pain")
    assert pains
    assert not any("исправьте" in p or "можно ли" in p.lower() for p in pains)


def test_role_words_in_reproduction_steps_are_no_segments() -> None:
    steps = (
        "1. Администраторы школы открывают панель настроек\n2. Преподаватели нажимают «Сохранить»\n"
    )
    # the same lines outside a steps section do name groups: the section is what differs
    assert _labels("Не открываются настройки\n\n" + steps, "segment")
    text = "Не открываются настройки\n\nШаги для воспроизведения:\n" + steps
    assert _labels(text, "segment") == []


def test_headings_are_found_by_layout_and_masked_in_place() -> None:
    text = (
        "**Шаги для воспроизведения:**\n1. Открыть файл\n\n"
        "## Ожидаемый результат\nФайл открывается.\n\n"
        "**Фактический результат:** файл не открывается.\n"
    )
    kinds = [s.kind for s in sections(text)]
    assert kinds == ["steps", "expected", "actual"]
    masked = mask_layout(text)
    assert len(masked) == len(text)
    assert "Файл открывается" not in masked
    assert "файл не открывается" in masked
    assert "Шаги" not in masked and "Фактический" not in masked
    assert "Открыть файл" in masked  # a step stays; only the heading goes


def test_a_singular_role_inside_a_things_name_or_a_place_is_no_segment() -> None:
    text = (
        "Иконки в проводнике отображаются квадратами\n\n"
        "В консоли разработчика появляется ошибка при запуске, "
        "а режим администратора не включается."
    )
    assert _labels(text, "segment") == []


def test_a_group_of_people_is_a_segment_without_its_quantity() -> None:
    text = (
        "Вход в аккаунт не работает\n\n"
        "У нескольких преподавателей на Linux вход в аккаунт завершается ошибкой."
    )
    assert _labels(text, "segment") == ["преподаватели"]


def test_a_workaround_asks_for_no_feature() -> None:
    text = (
        "Поиск по файлам зависает\n\n"
        "Глобальный поиск зависает на большом проекте.\n"
        "Обходной путь: добавить папку сборки в исключения поиска, тогда поиск работает."
    )
    answer = _extract(text)
    assert [n.label for n in answer.nodes if n.type == "feature"] == []
    assert any(n.type == "pain" for n in answer.nodes)


def test_the_people_of_one_particular_thing_are_no_segment() -> None:
    text = (
        "Расширение не обновляется\n\n"
        "Автор расширения не отвечает, участники сессии отключаются через минуту, "
        "а переводчик интерфейса показывает английский текст."
    )
    assert _labels(text, "segment") == []
    # a group named by what its people own stays one
    assert "владельцы кофеен" in _labels("Владельцы кофеен жалуются на цены.", "segment")


def test_when_it_broke_is_the_same_problem_not_another() -> None:
    text = (
        "Не запускается отладка\n\n"
        "При нажатии F5 отладчик не запускается и ничего не происходит. "
        "Раньше всё работало, сломалось после обновления на прошлой неделе."
    )
    pains = _labels(text, "pain")
    assert pains
    assert not any("сломалось" in p for p in pains)
    # said alone, it is the report's only statement of the problem and stays
    assert _labels("Всё сломалось после обновления на прошлой неделе.", "pain")


def test_what_the_writer_says_about_the_report_is_no_pain() -> None:
    text = (
        "Текст в терминале пропадает\n\n"
        "После перезапуска текст в терминале не отображается.\n"
        "Проверял на чистой установке без расширений, всё так же.\n"
        "Прикладываю скриншот ошибки.\n"
        "Проблема наблюдается уже неделю.\n"
        "Может, кто-то сталкивался с такой проблемой?"
    )
    pains = _labels(text, "pain")
    assert pains
    assert not any(
        word in p for p in pains for word in ("скриншот", "наблюдается", "такой", "без расширений")
    )
    # a problem named with its subject stays one
    assert _labels("Проблема с отображением шрифтов сохраняется после перезапуска.", "pain")


def test_the_fault_is_the_pain_not_what_it_drives_the_writer_to() -> None:
    text = (
        "Не прокручивается список\n\n"
        "Колесо мыши не прокручивает список в панели вывода, приходится тянуть полосу прокрутки."
    )
    pains = _labels(text, "pain")
    assert any("не прокручивает список" in p for p in pains), pains
    assert not any("приходится" in p for p in pains)
    # told alone, what the writer must do is the pain
    assert _labels("Каждое утро приходится сверять заказы вручную.", "pain")


def test_the_writers_own_role_is_no_segment() -> None:
    text = (
        "Терминал не открывается\n\n"
        "Я начинающий программист, работаю тестировщиком. "
        "Как разработчик, я каждый день пользуюсь терминалом, а он не открывается."
    )
    assert _labels(text, "segment") == []
    assert _labels("Незрячие пользователи не могут работать с панелью.", "segment") == [
        "незрячие пользователи"
    ]


def test_symptoms_a_bug_report_names_are_pains() -> None:
    for sentence in (
        "Редактор завис при открытии проекта.",
        "После выхода из спящего режима окно редактора мерцает.",
        "Разметка съезжает после изменения масштаба.",
        "Строки в панели вывода дублируются.",
    ):
        assert _labels(sentence, "pain"), sentence


def test_what_should_be_in_the_subjunctive_is_no_pain() -> None:
    text = (
        "Окно подтверждения мешает\n\n"
        "При закрытии вкладки окно подтверждения не закрывается.\n"
        "Правильно было бы не показывать это окно, лучше бы оно не появлялось вовсе."
    )
    pains = _labels(text, "pain")
    assert pains
    assert not any("показывать" in p or "появлялось" in p for p in pains)


def test_what_the_problem_does_to_the_writer_is_no_second_pain() -> None:
    text = (
        "Курсор прыгает в начало строки\n\n"
        "При наборе текста в Markdown-файле курсор иногда прыгает в начало строки. "
        "Это очень мешает работе."
    )
    pains = _labels(text, "pain")
    assert len(pains) == 1 and "прыгает" in pains[0], pains


def test_a_line_of_blanked_markup_is_read_in_one_pass():
    # Markup blanked to spaces leaves lines of hundreds of spaces before the text: a heading
    # pattern that could share them among its optional parts tried every way, for a minute.
    blanks = " " * 300
    text = f"Описание\n{blanks}can't open file '{blanks}x'\n\nОкружение\nWindows 11"
    kinds = [s.kind for s in sections(text)]
    assert kinds == ["told", "environment"]


def test_english_template_headings_above_russian_text_are_the_same_sections() -> None:
    text = (
        "Пропадает вкладка вывода\n\n"
        "Steps to Reproduce:\n"
        "1. Преподаватели открывают панель вывода\n"
        "2. Запускают задачу сборки\n\n"
        "Expected behavior:\n"
        "Панель не закрывается, пока задача не завершится.\n\n"
        "**Actual result:** вкладка вывода пропадает через секунду.\n"
        "OS: Windows 11 Pro\n"
    )
    kinds = [s.kind for s in sections(text)]
    assert kinds == ["steps", "expected", "actual", "environment"]
    answer = _extract(text)
    pains = [n.label for n in answer.nodes if n.type == "pain"]
    assert any("пропадает" in p for p in pains), pains
    assert not any("не закрывается" in p for p in pains)
    assert not [n for n in answer.nodes if n.type == "segment"]
    assert not any("Windows" in n.quote for n in answer.nodes)


def test_log_lines_pasted_into_a_report_say_nothing() -> None:
    text = (
        "Не работает проверка орфографии\n\n"
        "В окне вывода появляются строки:\n"
        "[Error - 09:41:07] Spell client: request failed, server is not responding.\n"
        "[warning] Cannot load dictionary for users in folder.\n"
        "12:03:55.418 Server process exited with code 1\n"
        "Подчёркивание ошибок в тексте не появляется."
    )
    masked = mask_layout(text)
    assert "Spell client" not in masked and "exited" not in masked and "dictionary" not in masked
    assert "В окне вывода появляются строки" in masked
    answer = _extract(text)
    assert all("request failed" not in n.quote and "exited" not in n.quote for n in answer.nodes)
    assert not [n for n in answer.nodes if n.type == "segment"]
    assert any("подчёркивание" in n.label.lower() for n in answer.nodes if n.type == "pain")


def test_what_the_fault_leads_to_is_the_same_problem_not_another() -> None:
    text = (
        "Не загружается список задач\n\n"
        "При открытии панели задач список остаётся пустым. "
        "Из-за этого я не могу запустить сборку проекта. "
        "В итоге каждый раз приходится вводить команды вручную. "
        "Работать так невозможно."
    )
    pains = _labels(text, "pain")
    assert len(pains) == 1 and "список" in pains[0], pains
    # in one sentence after a comma, the clause that «поэтому» opens goes the same way
    pains = _labels(
        "Шрифт в панели вывода не меняется, поэтому приходится каждый раз менять масштаб окна.",
        "pain",
    )
    assert len(pains) == 1 and "шрифт" in pains[0].lower(), pains
    # told alone, the consequence is the only statement of the problem and stays
    assert _labels("Из-за этого я не могу запустить сборку проекта.", "pain")
    # a group's own burden is no consequence of the writer's
    text = (
        "Запись не работает\n\nКнопка записи не реагирует. "
        "Администраторам приходится обзванивать клиентов вручную."
    )
    assert any("обзванивать" in p for p in _labels(text, "pain"))
    # a machine-translated report says the same in English
    text = (
        "Не открывается терминал\n\n"
        "The built-in terminal stays blank after start. Please help, I cannot work at all."
    )
    assert len(_labels(text, "pain")) == 1
    # being unable to work with something named is a problem of its own
    text = "Не открывается терминал\n\nТерминал пустой. Невозможно работать с файлами проекта."
    assert any("файлами" in p for p in _labels(text, "pain"))


def test_what_a_thing_should_do_is_no_job() -> None:
    for text in (
        "Не открывается справка\n\nПо кнопке F1 ничего не происходит. "
        "Должен открываться раздел справки.",
        "Неверный отступ\n\nПосле Enter курсор уходит в начало строки, а должен оставаться "
        "на уровне отступа.",
        "Меню не раскрывается\n\nПри наведении меню не раскрывается, хотя пункты меню "
        "должны показывать подсказки.",
    ):
        assert _labels(text, "job") == [], text
    # what people have to do stays their job
    assert _labels("Бухгалтеры должны сверять счета каждый вечер.", "job")


def test_a_tool_named_by_a_role_noun_is_no_segment() -> None:
    text = (
        "Не работают подсказки\n\n"
        "Ассистент Codex не отвечает на запросы. Git-клиент не видит новые ветки. "
        "Через проводник архив не распаковывается. Открываю установщик, а окно пустое."
    )
    assert _labels(text, "segment") == []
    # a person in the same slots takes the genitive form and stays one
    assert _labels("Через администратора приходится согласовывать каждую заявку.", "segment") == [
        "администраторы"
    ]


def test_the_makers_thanked_asked_or_fixing_are_no_segment() -> None:
    text = (
        "Пропала подсветка скобок\n\n"
        "После обновления скобки больше не подсвечиваются. "
        "Передайте разработчикам, что это важно. Спасибо разработчикам за работу. "
        "Когда разработчики это исправят? Вопрос к авторам темы оформления."
    )
    assert _labels(text, "segment") == []
    # people of the writer's kind, or makers of something else, stay a group
    assert _labels("Начинающие разработчики не понимают, как настроить отладку.", "segment") == [
        "начинающие разработчики"
    ]
    assert _labels("Разработчики жалуются на долгую сборку проекта.", "segment") == ["разработчики"]


def test_a_title_naming_by_a_noun_what_the_body_tells_by_a_verb_is_said_once() -> None:
    text = (
        "Не работает прокрутка в редакторе\n\n"
        "После обновления страница не прокручивается колесом мыши."
    )
    pains = _labels(text, "pain")
    assert len(pains) == 1 and "прокручивается" in pains[0], pains
    # a title about another matter stays beside the body's problem
    text = "Не работает прокрутка в редакторе\n\nПосле обновления пропали иконки файлов."
    assert len(_labels(text, "pain")) == 2


def test_a_problem_told_again_in_other_words_is_one_pain() -> None:
    text = (
        "Проблемы с окном настроек\n\n"
        "Окно настроек зависает. Кроме того, окно настроек подвисает при поиске."
    )
    pains = _labels(text, "pain")
    assert pains == ["окно настроек зависает"], pains
    # another problem of the same window is a pain of its own
    text = "Проблемы с окном настроек\n\nОкно настроек зависает. А ещё пропала кнопка сохранения."
    assert len(_labels(text, "pain")) == 2


def test_the_display_a_report_describes_is_no_metric() -> None:
    text = (
        "Размытые иконки\n\n"
        "Монитор 24 дюйма, разрешение 1920x1080, масштаб 175%. Иконки на панели размыты."
    )
    assert _labels(text, "metric") == []
    # a measure of the fault itself stays one
    assert _labels("Папка на 3000 файлов открывается 4 минуты.", "metric")


def test_a_tool_noun_naming_a_part_of_something_is_no_alternative() -> None:
    text = (
        "Не открывается ноутбук\n\n"
        "При открытии блокнота Jupyter ядро не стартует. В таблице переменных пусто."
    )
    assert _labels(text, "alternative") == []
    # the tool itself, used for the job, stays one
    assert set(_labels("Мастера ведут запись в тетради и в таблице.", "alternative")) == {
        "тетрадь",
        "таблицы",
    }


def test_the_writers_role_with_a_particle_is_no_segment() -> None:
    text = (
        "Не открывается терминал\n\n"
        "Я не программист, просто учусь. Я тоже всего лишь студент, а терминал не открывается."
    )
    assert _labels(text, "segment") == []


def test_when_the_problem_began_is_no_second_pain() -> None:
    text = (
        "Не работает переход по ссылкам\n\n"
        "Ctrl+клик по ссылке в терминале ничего не открывает. "
        "Проблема появилась после обновления до версии 2.3."
    )
    pains = _labels(text, "pain")
    assert pains and not any("появилась" in p for p in pains), pains
    # an error message that appeared is the problem itself
    pains = _labels("После обновления появилась ошибка при сохранении файла.", "pain")
    assert pains and "ошибка" in pains[0]


def test_a_plea_for_help_before_the_problem_keeps_the_problem() -> None:
    text = (
        "Вход в аккаунт\n\n"
        "Помогите, пожалуйста, не могу войти в аккаунт из редактора, окно входа сразу гаснет."
    )
    assert any("не могу войти" in p for p in _labels(text, "pain"))
    # a plea or a request with nothing told after it is no pain, nor is a plea that only asks
    assert _labels("Помогите, пожалуйста, разобраться.", "pain") == []
    assert _labels("Подскажите, пожалуйста, в чём может быть причина?", "pain") == []
    assert _labels("Исправьте, пожалуйста, как можно скорее.", "pain") == []


def test_a_request_with_a_courtesy_word_asks_for_a_feature() -> None:
    text = "Цвет вкладок\n\nДобавьте, пожалуйста, возможность закреплять вкладки слева."
    assert _labels(text, "feature") == ["возможность закреплять вкладки слева"]


def test_what_should_be_after_so_that_is_no_pain() -> None:
    text = (
        "Кнопка печати\n\n"
        "Кнопка печати не реагирует на нажатие. "
        "Нужно, чтобы окно просмотра не закрывалось без подтверждения."
    )
    pains = _labels(text, "pain")
    assert pains == ["кнопка печати не реагирует на нажатие"], pains


def test_how_it_was_before_the_fault_is_no_pain() -> None:
    text = (
        "Кнопка печати\n\n"
        "Кнопка печати не реагирует на нажатие. "
        "В прошлой версии такого не было и окно просмотра не закрывалось. "
        "Раньше превью не пропадало без подтверждения."
    )
    pains = _labels(text, "pain")
    assert pains == ["кнопка печати не реагирует на нажатие"], pains
    # the part told of now, after a comma, is the fault
    pains = _labels("До обновления подсветка работала, после обновления пропала.", "pain")
    assert any("пропала" in p for p in pains), pains


def test_what_a_thing_does_by_itself_is_a_pain() -> None:
    for sentence in (
        "Панель терминала закрывается сама через минуту.",
        "Шрифт редактора сам по себе сменился на моноширинный.",
        "Тема оформления самопроизвольно переключается на светлую.",
    ):
        assert _labels(sentence, "pain"), sentence
    # what the writer did himself is no fault
    assert _labels("Я сам разобрался, спасибо.", "pain") == []


def test_a_console_line_opened_by_a_programs_path_says_nothing() -> None:
    text = (
        "Скрипт не запускается\n\n"
        "Нажимаю «Запустить», а скрипт не стартует. В терминале:\n"
        "D:\\Tools\\runner\\run.exe: cannot open file 'D:/projects/demo.py': access is denied\n"
        "/usr/local/bin/runner: permission denied while reading config\n"
    )
    answer = _extract(text)
    assert all("cannot open" not in n.quote and "permission" not in n.quote for n in answer.nodes)
    assert any(n.type == "pain" for n in answer.nodes)


def test_how_to_do_something_asked_at_the_start_is_the_writers_job() -> None:
    text = (
        "Как вернуть боковую панель?\n\n"
        "Подскажите, как вернуть боковую панель слева? После обновления она справа."
    )
    assert _labels(text, "job") == ["вернуть боковую панель слева"]
    # how to fix it asks for a fix; «не понимаю, как …» asks nothing
    assert _labels("Как исправить эту ошибку?", "job") == []
    assert _labels("Как сделать, чтобы вкладки не закрывались?", "job") == []
    assert _labels("Не понимаю, как вернуть боковую панель.", "job") == []


def test_an_error_said_only_to_show_before_what_it_is_is_one_pain() -> None:
    text = (
        "Ошибка сборки\n\n"
        "При сборке проекта выскакивает ошибка. Можно ли это поправить? "
        "Компилятор не находит заголовочный файл stdio.h."
    )
    pains = _labels(text, "pain")
    assert len(pains) == 1 and "не находит" in pains[0], pains
    # said alone in its paragraph, it is the report's statement of the problem
    text = "Ошибка сборки\n\nПри сборке проекта выскакивает ошибка.\n\nСпасибо!"
    assert any("выскакивает ошибка" in p for p in _labels(text, "pain"))


def test_a_program_that_stopped_doing_anything_is_broken() -> None:
    for sentence in (
        "Отладчик перестал останавливаться на точках останова.",
        "После обновления редактор перестал подсвечивать парные скобки.",
    ):
        assert _labels(sentence, "pain"), sentence
    # people who stopped doing something chose to
    assert _labels("Я перестал пользоваться этим расширением.", "pain") == []


def test_the_setup_a_reproduction_step_tells_is_no_pain() -> None:
    text = (
        "Не запускается задача\n\n"
        "Шаги воспроизведения:\n"
        "1. Создать задачу, которая ссылается на несуществующий скрипт\n"
        "2. Открыть папку, в которой нет файла package.json\n"
        "3. Запустить задачу — панель вывода остаётся пустой\n"
    )
    pains = _labels(text, "pain")
    assert not any("несуществующий" in p or "нет файла" in p for p in pains), pains
    assert pains


def test_a_list_of_things_to_do_is_steps_without_a_heading() -> None:
    text = (
        "Не запускается задача\n\n"
        "1. Создать задачу, которая ссылается на несуществующий скрипт\n"
        "2. Открыть папку, в которой нет файла package.json\n"
        "3. Запустить задачу — панель вывода остаётся пустой\n"
    )
    assert [text[s:e].split("\n")[0] for s, e in steps(text)] == [
        "1. Создать задачу, которая ссылается на несуществующий скрипт"
    ]
    assert not any("нет файла" in p or "несуществующий" in p for p in _labels(text, "pain"))
    # a list of symptoms is no steps
    text = "Сбои\n\n- не работает поиск по файлам\n- пропали иконки в боковой панели\n"
    assert steps(text) == []
    assert len(_labels(text, "pain")) == 2


# The Russian lists hold the like of the English words: a warning that shows, a thing deleted
# by itself, what is unpleasant or works badly, a crash or a corrupted file, a quality denied
# («не плавная»).
@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("При сохранении появляется предупреждение о кодировке.", "предупреждение"),
        ("После перезагрузки удалились все закладки.", "удалились"),
        ("Новый шрифт в редакторе неприятный.", "неприятный"),
        ("Читать такой текст не приятно.", "не приятно"),
        ("Поиск по проекту плохо работает с длинными путями.", "плохо работает"),
        ("Постоянные вылеты при отладке.", "вылеты"),
        ("Файл настроек повреждён после обновления.", "повреждён"),
        ("Прокрутка в редакторе не плавная.", "не плавная"),
        ("Расширение не совместимо с новой версией.", "не совместимо"),
    ],
)
def test_russian_failure_words_match_the_english_ones(text: str, said: str) -> None:
    assert any(said in pain for pain in _labels(text, "pain"))


@pytest.mark.parametrize(
    "text",
    [
        "Файл сохранился без предупреждения.",  # a warning that does not come
        "Подсветка работает неплохо.",  # "not bad"
        "Работает быстро, нареканий нет.",
    ],
)
def test_the_same_words_denied_or_in_praise_are_no_pain(text: str) -> None:
    assert _labels(text, "pain") == []


def test_a_phrase_denied_and_replaced_after_a_is_one_pain() -> None:
    """«не X, а Y» after a verb: the product did it in the wrong place. The comma before «а»
    does not split the statement; a denied verb still ends its clause, and what the writer
    does is no fault."""
    pains = _labels("Подсказка показывается не над курсором, а в углу экрана.", "pain")
    assert any("не над курсором" in pain for pain in pains)
    assert _labels("Я храню проекты не на диске C, а на диске D.", "pain") == []
    pains = _labels("Кнопка сборки не работает, а меню открывается.", "pain")
    assert any("кнопка сборки не работает" in pain for pain in pains)
    assert not any("меню" in pain for pain in pains)


@pytest.mark.parametrize(
    "text",
    [
        "Было бы удобно, если бы можно было закреплять вкладки.",
        "Хотелось бы, чтобы я мог закреплять вкладки.",
    ],
)
def test_a_wish_framed_by_a_condition_asks_for_a_feature_not_a_job(text: str) -> None:
    assert _labels(text, "feature") == ["закреплять вкладки"]
    assert _labels(text, "job") == []


def test_a_pain_label_starts_on_its_statement_not_on_a_cut_circumstance() -> None:
    text = "После обновления до версии 1.60 встроенный терминал не открывается."
    assert _labels(text, "pain") == ["встроенный терминал не открывается"]


def test_a_body_that_says_only_that_nothing_happens_leaves_the_title_its_pain() -> None:
    text = (
        "Не запускается отладчик Python\n\n"
        "При нажатии F5 выходит сообщение «Не удалось запустить отладчик» "
        "и больше ничего не происходит."
    )
    assert _labels(text, "pain") == ["не запускается отладчик Python"]


@pytest.mark.parametrize(
    ("text", "pain"),
    [
        ("Большое потребление памяти", "большое потребление памяти"),
        ("Редактор грузит процессор на 100%.", "редактор грузит процессор на 100%"),
        (
            "Когда я запускаю программу, русские буквы в консоли выводятся как знаки вопроса.",
            "русские буквы в консоли выводятся как знаки вопроса",
        ),
    ],
)
def test_a_resource_used_up_or_garbled_text_is_a_pain(text: str, pain: str) -> None:
    assert _labels(text, "pain") == [pain]


@pytest.mark.parametrize(
    "text", ["Потребление памяти нормальное.", "Файлы отображаются как список."]
)
def test_a_normal_load_or_a_view_mode_is_no_pain(text: str) -> None:
    assert _labels(text, "pain") == []


def test_a_title_told_again_by_a_verb_of_its_short_root_is_one_pain() -> None:
    text = "Terminal не принимает ввод\n\nТекст не вводится, курсор мигает."
    assert len(_labels(text, "pain")) == 1


@pytest.mark.parametrize(
    ("text", "pain"),
    [
        ("Сбиваются настройки отступов при каждом открытии файла.", "сбиваются настройки"),
        ("Неудобно, что нельзя перетащить вкладку в другое окно.", "нельзя перетащить вкладку"),
        ("Я пытаюсь открыть проект из WSL, но окно просто закрывается.", "окно просто закрывается"),
    ],
)
def test_common_ways_to_report_a_fault(text: str, pain: str) -> None:
    assert any(pain in label for label in _labels(text, "pain")), _labels(text, "pain")


def test_an_attempt_that_succeeded_is_no_pain() -> None:
    assert _labels("Пытался открыть файл, но всё получилось.", "pain") == []


def test_an_attempt_told_without_a_contrast_denies_no_expectation() -> None:
    pains = _labels("У меня слетел русский язык, пытался фиксить", "pain")
    assert any("слетел" in p for p in pains), pains


def test_a_request_in_the_future_tense_asks_for_a_feature() -> None:
    text = "Буду благодарен, если добавите поддержку Markdown-таблиц."
    assert _labels(text, "feature") == ["поддержка Markdown-таблиц"]


def test_a_borrowed_tool_name_with_a_persons_suffix_is_no_segment() -> None:
    text = "не работает дебагер\n\nставлю брейкпоинт а он не останавливается"
    assert _labels(text, "segment") == []
    assert "менеджеры" in _labels("Менеджеры и дизайнеры жалуются на интерфейс.", "segment")


def test_a_how_to_question_asks_for_a_way_and_tells_no_fault() -> None:
    text = "Подскажите пожалуйста как убрать подчеркивание ошибок красным"
    assert _labels(text, "job") == ["убрать подчеркивание ошибок красным"]
    assert _labels(text, "pain") == []


@pytest.mark.parametrize(
    ("text", "pain"),
    [
        ("Ctrl+C не копирует текст в терминале", "Ctrl+C не копирует текст в терминале"),
        ("Форматирование ломает отступы в yaml", "форматирование ломает отступы в yaml"),
    ],
)
def test_a_key_combination_is_one_word_and_breaking_a_thing_is_a_fault(
    text: str, pain: str
) -> None:
    assert _labels(text, "pain") == [pain]


def test_groups_named_by_experience_or_platform_are_segments() -> None:
    assert _labels("Для новичков очень сложно разобраться с настройкой Python.", "segment") == [
        "новички"
    ]
    text = "Пользователи Linux не могут установить расширение из маркетплейса."
    assert _labels(text, "segment") == ["пользователи Linux"]


def test_a_product_free_of_the_fault_is_a_competitor() -> None:
    text = "В PyCharm такой проблемы нет, автодополнение работает сразу."
    assert _labels(text, "competitor") == ["PyCharm"]


def test_a_laptops_specification_is_no_metric() -> None:
    assert _labels("Ноутбук: Lenovo ThinkPad, 8 ГБ, Windows 10 Pro 21H2.", "metric") == []


def test_a_statement_the_next_sentence_calls_trouble_is_a_pain() -> None:
    text = "Панель поиска переехала вниз. Это очень неудобно."
    assert _labels(text, "pain") == ["панель поиска переехала вниз"]
    quote = next(n.quote for n in _extract(text).nodes if n.type == "pain")
    assert quote.endswith("Это очень неудобно")  # the judgement is the evidence


def test_a_statement_a_relative_clause_calls_a_problem_is_a_pain() -> None:
    text = "При переходе по словам озвучивание звучит дважды, что представляет большую проблему."
    pains = _labels(text, "pain")
    assert len(pains) == 1 and pains[0].endswith("озвучивание звучит дважды")


def test_a_question_how_to_fix_this_error_looks_past_a_concession() -> None:
    text = (
        "Все файлы в проводнике имеют одну и ту же иконку.\n"
        "Хотя для каждого типа есть своя иконка.\n"
        "Как исправить эту ошибку?"
    )
    pains = _labels(text, "pain")
    assert len(pains) == 1 and "одну и ту же иконку" in pains[0]


@pytest.mark.parametrize(
    "text",
    [
        "Панель поиска переехала вниз. Это не проблема.",
        "Панель поиска переехала вниз, что очень удобно.",
        "Панель поиска переехала вниз. Как её вернуть?",
    ],
)
def test_no_trouble_called_makes_no_pain(text: str) -> None:
    assert _labels(text, "pain") == []


@pytest.mark.parametrize(
    ("text", "pain"),
    [
        ("Самопроизвольное закрытие терминала", "самопроизвольное закрытие терминала"),
        ("Самопроизвольная смена цветовой схемы", "самопроизвольная смена цветовой схемы"),
    ],
)
def test_an_event_that_happens_unasked_is_a_pain(text: str, pain: str) -> None:
    assert _labels(text, "pain") == [pain]


def test_unwanted_content_filtered_is_no_pain() -> None:
    assert _labels("Фильтр блокирует нежелательные звонки.", "pain") == []


def test_under_actual_behaviour_the_first_statement_is_the_pain() -> None:
    text = (
        "Цветовая схема\n\n"
        "### Фактическое поведение\n"
        "Текст в редакторе отображается зелёным.\n\n"
        "### Ожидаемое поведение\n"
        "Текст отображается белым, как раньше.\n"
    )
    assert _labels(text, "pain") == ["текст в редакторе отображается зелёным"]


def test_a_forms_problem_category_in_a_quoted_block_is_no_pain() -> None:
    text = (
        "Страница не загружается\n\n"
        "> **Problem type**: Site is not usable\n"
        "> **Описание**: кнопка входа не нажимается.\n"
    )
    assert [s.kind for s in sections(text)] == ["category", "told"]
    pains = _labels(text, "pain")
    assert pains and not any("usable" in p for p in pains)


@pytest.mark.parametrize(
    ("text", "competitor"),
    [
        ("Страница пустая. Проверено в Opera и Vivaldi.", "Vivaldi"),
        ("Страница пустая. В Chrome не воспроизводится.", "Chrome"),
        ("Страница пустая. Не воспроизводится в Vivaldi.", "Vivaldi"),
        ("Картинки огромные.\n\nOpera 102.0.4 отображает эту страницу правильно.", "Opera"),
        ("Страница не грузится. В Opera страница нормально загрузилась.", "Opera"),
        ("Фильтр не работает. Исправлено для Opera, но не для нас.", "Opera"),
        ("Страница пустая. Firefox работает.", "Firefox"),
        ("Страница пустая. Нормально работает в Vivaldi 117.", "Vivaldi"),
        ("Страница пустая. В браузере Microsoft Edge этой проблемы НЕТ.", "Microsoft Edge"),
    ],
)
def test_a_product_free_of_the_fault_or_tested_against_is_a_competitor_in_russian(text, competitor):
    assert ("competitor", competitor) in _nodes(text)


def test_an_address_is_no_competitor_in_russian():
    text = "Неверный адрес\n\nУже был контакт вроде karl.smith@example.org, почта предлагала его."
    assert "competitor" not in {kind for kind, _ in _nodes(text)}, _nodes(text)


@pytest.mark.parametrize("told", ["Журнал ошибок ничего не выводит.", "Логи ничего не показывают."])
def test_a_log_with_nothing_in_it_tells_no_fault(told):
    pains = _labels(f"Вкладка пустая\n\n{told}", "pain")
    assert pains == ["вкладка пустая"], pains


def test_a_platform_that_works_is_no_competitor_in_russian():
    assert "competitor" not in {kind for kind, _ in _nodes("Windows работает.")}


@pytest.mark.parametrize(
    ("text", "pain"),
    [
        ("Опечатки в справке по паролям", "опечатки в справке"),
        ("Битая ссылка", "битая ссылка"),
    ],
)
def test_faults_of_a_text_are_pains_in_russian(text, pain):
    assert [label.lower() for kind, label in _nodes(text) if kind == "pain"] == [pain]


def test_porting_and_what_a_ticket_says_must_be_done_are_no_fault_and_no_job():
    text = "Портировать в SeaMonkey изменения из Bug 1823686\n\nНужно убрать использование RDF."
    request = ExtractionRequest(text=text, language="ru", product="", records="bug_report")
    kinds = {n.type for n in extract_offline(request).nodes}
    assert not kinds & {"pain", "job"}


@pytest.mark.parametrize(
    ("text", "alternative"),
    [
        ("Картинки пропадают. Вставка в другой редактор тоже устраняет проблему.", "вставка"),
        ("Редактор зависает. Перезапуск помогает.", "перезапуск"),
    ],
)
def test_a_way_round_told_by_an_actions_noun_is_an_alternative_and_no_new_pain(text, alternative):
    nodes = _nodes(text)
    assert any(kind == "alternative" and label.startswith(alternative) for kind, label in nodes)
    assert [label for kind, label in nodes if kind == "pain"] == [text.split(".")[0].lower()]
    assert "alternative" not in {kind for kind, _ in _nodes("Редактор зависает. Коллега помог.")}


def test_a_ticket_naming_its_duplicates_search_or_a_remedy_in_vain_states_no_second_fault():
    text = (
        "Редактор зависает при вставке.\n\nПереустановка не помогла. Явных дубликатов не найдено."
    )
    request = ExtractionRequest(text=text, language="ru", product="", records="bug_report")
    pains = [n.label for n in extract_offline(request).nodes if n.type == "pain"]
    assert pains == ["редактор зависает при вставке"]


def test_the_only_way_round_is_an_alternative_and_a_ticket_filed_is_no_fault():
    nodes = _nodes(
        "Окно не закрывается крестиком. Единственный способ закрыть окно — развернуть его."
    )
    assert ("alternative", "развернуть") in nodes
    assert _labels("Сборка падает. Для этого год назад был заведён баг 1728988.", "pain") == [
        "сборка падает"
    ]


def test_porting_is_no_fault_when_the_title_quotes_a_long_english_one():
    text = (
        'Портировать в SeaMonkey Bug 1602463 Part 4 "Register/unregister the default browser '
        'agent scheduled task during install/uninstall"'
    )
    assert _labels(text, "pain") == []


def test_a_long_subject_reads_on_to_the_noun_it_hangs_on() -> None:
    # the word limit would start the label on «клавиш», a word that depends on the subject;
    # and the cut would leave «начиная с версии» without its number
    text = "Обработка горячих клавиш в текстовых полях сломана начиная с версии 3.2."
    assert _labels(text, "pain") == ["обработка горячих клавиш в текстовых полях сломана"]


def test_a_window_on_a_long_clause_starts_on_the_coordinated_predicate() -> None:
    text = "Пытаюсь собрать модуль под Debian arm64 и получаю несколько ошибок компиляции."
    assert _labels(text, "pain") == ["получаю несколько ошибок компиляции"]


@pytest.mark.parametrize(
    ("text", "pain"),
    [
        # an absence or an excess said after its subject
        ("Кнопка печати отсутствует.", "кнопка печати отсутствует"),
        ("Иконки слишком мелкие или слишком бледные.", "иконки слишком мелкие или слишком бледные"),
        # a thing empty, out of place, timed out, extra, done by mistake or other than meant
        ("Список вложений пуст.", "список вложений пуст"),
        ("После входа открывается пустая страница.", "пустая страница"),
        ("Кнопки на панели смещены.", "кнопки на панели смещены"),
        ("Время ожидания ответа сервера истекло.", "время ожидания ответа сервера истекло"),
        ("Справа появляется лишняя рамка.", "лишняя рамка"),
        ("Черновики ошибочно попадают в корзину.", "черновики ошибочно попадают в корзину"),
        (
            "Иконки на главной отображаются намного больше задуманного размера.",
            "иконки на главной отображаются намного больше задуманного размера",
        ),
        # a link that drops, a thing that forgets what it was told, an action done twice
        ("Через минуту соединение с сервером отваливается.", "соединение с сервером отваливается"),
        ("Боковая панель забывает свою ширину.", "боковая панель забывает свою ширину"),
        ("Письмо отправляется дважды.", "письмо отправляется дважды"),
    ],
)
def test_a_russian_statement_of_what_is_wrong_is_a_pain(text: str, pain: str) -> None:
    assert any(pain in label for label in _labels(text, "pain")), _labels(text, "pain")


@pytest.mark.parametrize(
    "text",
    [
        # a trouble said absent
        "Ошибки отсутствуют.",
        "Проблемы со звуком отсутствуют.",
        # a reason given, not a fault of the subject
        "Файл сохранён на диск, так как у него слишком большой объём для загрузки.",
        # an empty field asked for
        "Оставьте поле пустым и нажмите «Сохранить».",
        # a task told by an infinitive
        "Также заменить устаревший модуль экспорта на новый.",
        "Вместо старого поля завести отдельное свойство с понятным именем.",
        # the writer's own forgetting
        "Я забываю сохранить файл перед выходом.",
    ],
)
def test_a_russian_statement_of_no_fault_is_no_pain(text: str) -> None:
    assert _labels(text, "pain") == []


def test_an_english_message_quoted_in_the_body_does_not_replace_the_title() -> None:
    # a report titled and told in Russian: the English it quotes is no telling of the title's
    # fault in another language
    text = (
        "Справка: мёртвая ссылка на страницу установки\n\n"
        'Там только надпись "This page has moved and is no longer updated".'
    )
    assert any("мёртвая ссылка" in label for label in _labels(text, "pain")), _labels(text, "pain")


def test_a_metric_number_is_a_measure_not_a_year() -> None:
    assert lexicon_ru.METRIC_NUMBER.search("на ноутбуке 2015 года с Windows") is None
    assert lexicon_ru.METRIC_NUMBER.search("в 2023 году") is None
    # a span of years does measure, and so does an amount written with a plus
    assert lexicon_ru.METRIC_NUMBER.search("уже 3 года") is not None
    assert lexicon_ru.METRIC_NUMBER.search("уже 12+ ГБ к вечеру") is not None


@pytest.mark.parametrize(
    ("text", "feature"),
    [
        ("Сделайте, пожалуйста, экспорт в CSV.", "экспорт"),
        ("Хотелось бы иметь тёмную тему.", "тёмная тема"),
        ("Предлагаю добавить горячую клавишу для форматирования.", "горячая клавиша"),
        ("Не хватает возможности группировать вкладки.", "группировать вкладки"),
    ],
)
def test_a_request_names_what_is_asked_for_without_its_cue(text: str, feature: str) -> None:
    features = _labels(text, "feature")
    assert any(label.startswith(feature) for label in features), features
    assert not any(
        label.split()[0] in ("добавить", "иметь", "возможности") for label in features
    ), features
    # what a wish asks for is a feature, not a job
    assert _labels(text, "job") == []


def test_a_full_stop_inside_a_quoted_message_does_not_end_the_sentence() -> None:
    text = (
        "Не ставятся расширения\n\n"
        'Не могу установить расширения, пишет "Сервер недоступен. Повторите позже". '
        "Переустановка не помогла."
    )
    pains = _extract(text).nodes
    quoted = [n for n in pains if "Повторите позже" in n.quote]
    assert quoted, "the message stays with the words that report it"
    assert not any(n.label.startswith("Повторите") for n in pains)


@pytest.mark.parametrize(
    "text",
    [
        "Интернет работает, прокси не используется.",
        "Антивирус не установлен, брандмауэр отключён.",
        "Не использую прокси.",
    ],
)
def test_a_network_tool_said_not_in_use_is_the_setup_not_a_pain(text: str) -> None:
    assert _labels(text, "pain") == []


@pytest.mark.parametrize(
    "text",
    ["VPN не подключается после обновления.", "С VPN расширения не загружаются."],
)
def test_a_network_tool_that_fails_or_a_fault_with_one_is_still_a_pain(text: str) -> None:
    pains = _labels(text, "pain")
    assert len(pains) == 1 and "VPN" in pains[0], pains


def test_a_key_combination_or_a_menu_item_that_works_is_no_competitor() -> None:
    text = (
        "Пропала кнопка поиска\n\n"
        "После обновления пропала кнопка поиска на боковой панели. Сочетание Ctrl+Shift+F "
        "работает. Через меню Edit всё работает."
    )
    assert _labels(text, "competitor") == []


def test_another_editor_that_does_it_fast_is_a_competitor() -> None:
    text = "Большой файл открывается минуту. В Geany тот же файл открывается мгновенно."
    assert _labels(text, "competitor") == ["Geany"]


def test_a_requested_feature_is_named_in_the_nominative() -> None:
    assert _labels("Добавьте, пожалуйста, тёмную тему.", "feature") == ["тёмная тема"]


@pytest.mark.parametrize(
    ("text", "pain"),
    [
        ("Символы появляются с задержкой.", "символы появляются с задержкой"),
        (
            "Файл JSON размером 50 МБ открывается около минуты, прокрутка дёргается.",
            "файл JSON размером 50 МБ открывается около минуты",
        ),
    ],
)
def test_a_pain_told_by_a_circumstance_takes_in_what_it_qualifies(text: str, pain: str) -> None:
    assert pain in _labels(text, "pain")


@pytest.mark.parametrize(
    ("text", "feature"),
    [
        (
            "Я пишу на PHP и хотел бы, чтобы файлы сохранялись автоматически.",
            "файлы сохранялись автоматически",
        ),
        ("Хочу, чтобы вкладки можно было закреплять.", "вкладки можно было закреплять"),
        (
            "Было бы здорово, если бы терминал запоминал историю команд.",
            "терминал запоминал историю команд",
        ),
        ("Хотелось бы иметь возможность закреплять вкладки.", "возможность закреплять вкладки"),
    ],
)
def test_a_wish_told_by_a_clause_names_the_whole_clause(text: str, feature: str) -> None:
    assert _labels(text, "feature") == [feature]


def test_a_wish_to_ask_or_for_it_just_to_work_names_no_feature() -> None:
    assert _labels("Хотел бы узнать, как отключить подсказки.", "feature") == []
    assert _labels("Я хочу, чтобы это просто работало.", "feature") == []


@pytest.mark.parametrize(
    ("text", "pain"),
    [
        (
            'Если в пути есть русские буквы, отладчик не запускается и пишет "Cannot find module".',
            'отладчик не запускается и пишет "Cannot find module"',
        ),
        ("Сборка падает и пишет.", "сборка падает"),
    ],
)
def test_a_verb_of_saying_at_a_labels_end_takes_its_message_or_goes(text: str, pain: str) -> None:
    assert _labels(text, "pain") == [pain]


def test_another_product_doing_the_same_thing_fast_is_a_competitor() -> None:
    text = "Поиск по папке занимает минуту. Geany делает то же самое за пару секунд."
    assert _labels(text, "competitor") == ["Geany"]


def test_the_product_someone_moved_to_is_a_competitor() -> None:
    assert _labels("Слишком много рекламы, перешёл на Todoist.", "competitor") == ["Todoist"]


@pytest.mark.parametrize(
    ("text", "pain"),
    [
        ("Всё нравится, но доставка очень долгая.", "доставка очень долгая"),
        ("Курьеры опаздывают на час.", "курьеры опаздывают на час"),
    ],
)
def test_something_too_long_or_late_is_a_pain(text: str, pain: str) -> None:
    assert _labels(text, "pain") == [pain]


def test_a_subject_after_when_it_broke_names_what_broke() -> None:
    text = (
        "Проблема с расширением Prettier\n\n"
        "После установки расширения Prettier форматирование перестало работать."
    )
    assert _labels(text, "pain") == [
        "после установки расширения Prettier форматирование перестало работать"
    ]


def test_what_came_instead_of_what_was_meant_is_in_the_label() -> None:
    pains = _labels("При двойном клике выделяется не слово, а вся строка.", "pain")
    assert pains == ["при двойном клике выделяется не слово, а вся строка"]
    assert _labels("Кнопка не работает, а вторая работает.", "pain") == ["кнопка не работает"]


def test_how_often_the_writer_tried_is_no_metric_but_how_often_it_failed_is() -> None:
    assert _labels("Не могу войти. Пробовал 3 раза.", "metric") == []
    assert _labels("Редактор упал 3 раза за день.", "metric") == ["редактор упал 3 раза за день"]


def test_one_feature_asked_for_in_two_cases_is_one_node() -> None:
    text = "Добавьте поддержку Markdown. Не хватает поддержки Markdown."
    assert _labels(text, "feature") == ["поддержка Markdown"]
