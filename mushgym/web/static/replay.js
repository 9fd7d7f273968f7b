// The replay page: one picture per position, the move list, step / play / speed controls.
// DATA (set by the page): {frames: [svg text per position], moves: [{ply, seat, player, move,
// candidates, weight_kind, value}], result: text}. Position k is the table after k moves.
(function () {
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const n = data.frames.length - 1;
  let k = 0, timer = null;
  const $ = (id) => document.getElementById(id);
  const list = $("moves");
  data.moves.forEach((m, i) => {
    const li = document.createElement("li");
    li.textContent = m.player + ": " + m.move;
    li.onclick = () => show(i + 1);
    list.appendChild(li);
  });
  function why(m) {
    if (!m || !m.candidates) return "";
    let out = "<p class='muted'>" + m.player + "'s candidates (" + m.weight_kind + ")" +
      (m.value !== undefined && m.value !== null ? ", value " + m.value : "") + ":</p><ol class='cands'>";
    m.candidates.forEach((c) => { out += "<li>" + escapeHtml(c.move) + " <span class='muted'>" + c.weight + "</span></li>"; });
    return out + "</ol>";
  }
  function escapeHtml(s) { const d = document.createElement("div"); d.textContent = s; return d.innerHTML; }
  function show(i) {
    k = Math.max(0, Math.min(n, i));
    $("table").innerHTML = data.frames[k];
    $("position").textContent = "move " + k + " of " + n;
    $("slider").value = k;
    Array.from(list.children).forEach((li, j) => li.classList.toggle("current", j === k - 1));
    if (k > 0) list.children[k - 1].scrollIntoView({block: "nearest"});
    const m = data.moves[k - 1];
    $("last").innerHTML = k === 0 ? "the deal" : escapeHtml(m.player + ": " + m.move) + why(m);
    $("result").textContent = k === n ? data.result : "";
  }
  function stop() { if (timer) { clearInterval(timer); timer = null; } $("play").textContent = "play"; }
  function play() {
    if (timer) { stop(); return; }
    if (k >= n) show(0);
    $("play").textContent = "pause";
    timer = setInterval(() => { if (k >= n) stop(); else show(k + 1); }, 1000 / parseFloat($("speed").value));
  }
  $("first").onclick = () => { stop(); show(0); };
  $("prev").onclick = () => { stop(); show(k - 1); };
  $("next").onclick = () => { stop(); show(k + 1); };
  $("last-pos").onclick = () => { stop(); show(n); };
  $("play").onclick = play;
  $("speed").onchange = () => { if (timer) { stop(); play(); } };
  $("slider").max = n;
  $("slider").oninput = (e) => { stop(); show(parseInt(e.target.value, 10)); };
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") { stop(); show(k + 1); }
    else if (e.key === "ArrowLeft") { stop(); show(k - 1); }
    else if (e.key === " ") { e.preventDefault(); play(); }
  });
  show(0);
})();
