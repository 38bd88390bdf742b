// The upload form's column pickers: for a .csv or .tsv file, the header row is read in the
// browser and offered as the text, author and date columns (the server checks them again).
(function () {
  "use strict";

  function headerCells(line, delimiter) {
    var cells = [], cell = "", quoted = false;
    for (var i = 0; i < line.length; i++) {
      var c = line[i];
      if (quoted) {
        if (c === '"' && line[i + 1] === '"') { cell += '"'; i++; }
        else if (c === '"') quoted = false;
        else cell += c;
      } else if (c === '"') quoted = true;
      else if (c === delimiter) { cells.push(cell.trim()); cell = ""; }
      else cell += c;
    }
    cells.push(cell.trim());
    return cells;
  }

  function fill(select, names, blank) {
    select.replaceChildren();
    if (blank) select.add(new Option("(none)", ""));
    names.forEach(function (name) {
      var option = new Option(name, name);
      option.title = name;  // a long name is cut in the menu; the whole of it on hover
      select.add(option);
    });
  }

  // Text columns are checkboxes: several can be chosen without Ctrl-click, and a long name
  // wraps instead of being cut.
  function fillChecks(box, names) {
    box.replaceChildren();
    names.forEach(function (name, i) {
      var label = document.createElement("label");
      var check = document.createElement("input");
      check.type = "checkbox";
      check.name = "text_columns";
      check.value = name;
      check.id = "text-column-" + i;
      label.htmlFor = check.id;
      label.append(check, " ", name);
      box.append(label);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var input = document.getElementById("notes-file");
    var box = document.getElementById("table-columns");
    if (!input || !box) return;
    input.addEventListener("change", function () {
      var file = input.files && input.files[0];
      var table = file && /\.(csv|tsv)$/i.test(file.name);
      box.hidden = !table;
      if (!table) return;
      file.slice(0, 65536).text().then(function (text) {
        var line = text.replace(/^\uFEFF/, "").split(/\r?\n/)[0] || "";
        var tsv = /\.tsv$/i.test(file.name);
        var delimiter = tsv ? "\t" : (line.split(";").length > line.split(",").length ? ";" : ",");
        var names = headerCells(line, delimiter).filter(function (n) { return n; });
        fillChecks(document.getElementById("text-columns"), names);
        fill(document.getElementById("author-column"), names, true);
        fill(document.getElementById("date-column"), names, true);
      });
    });
  });
})();
