// voevoda: what the pages do with JavaScript — and each page works without it.
"use strict";
document.addEventListener("click", function (event) {
  // «Copy» buttons: copy a textarea's or input's text to the clipboard
  var button = event.target.closest("[data-copy]");
  if (button) {
    var source = document.getElementById(button.getAttribute("data-copy"));
    if (!source) return;
    var text = source.value !== undefined ? source.value : source.textContent;
    var done = function () {
      var label = button.textContent;
      button.textContent = button.getAttribute("data-done") || "✓";
      setTimeout(function () { button.textContent = label; }, 1500);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () { source.select(); document.execCommand("copy"); done(); });
    } else {
      source.select();
      document.execCommand("copy");
      done();
    }
    return;
  }
  // a problem's «line N:C» puts the cursor there in the post
  var link = event.target.closest("a.line[data-line]");
  if (link) {
    var area = document.getElementById("post-text");
    if (!area) return;
    event.preventDefault();
    var line = parseInt(link.getAttribute("data-line"), 10), column = parseInt(link.getAttribute("data-column") || "1", 10);
    var lines = area.value.split("\n"), offset = 0;
    for (var i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
    offset += Math.max(0, column - 1);
    area.focus();
    area.setSelectionRange(offset, offset);
  }
});
