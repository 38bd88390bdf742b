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
    names.forEach(function (name) { select.add(new Option(name, name)); });
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
        fill(document.getElementById("text-columns"), names, false);
        fill(document.getElementById("author-column"), names, true);
        fill(document.getElementById("date-column"), names, true);
      });
    });
  });
})();
