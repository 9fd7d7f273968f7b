// The game page of `mushgym serve`: draws the view the server sends (the person's seat only),
// sends moves, undo and hint requests, and redraws from the answer.
(function () {
  const $ = (id) => document.getElementById(id);
  let busy = false;
  function text(s) { const d = document.createElement("div"); d.textContent = s; return d.innerHTML; }
  function draw(view) {
    $("table").innerHTML = view.picture;
    $("status").textContent = view.status;
    const legal = $("legal");
    legal.innerHTML = "";
    view.legal.forEach((m) => {
      const b = document.createElement("button");
      b.textContent = m.move;
      b.dataset.action = m.action;
      b.className = "move";
      b.onclick = () => send("move", {action: m.action});
      legal.appendChild(b);
    });
    if (!view.legal.length) {
      legal.innerHTML = view.over ? "<p class='muted'>The game is over." +
        (view.replay ? " It is saved as <a href='/replays/" + encodeURIComponent(view.replay) + "'>" +
         text(view.replay) + "</a>." : "") + "</p>" : "<p class='muted'>Waiting...</p>";
    }
    const moves = $("moves");
    moves.innerHTML = "";
    view.history.forEach((h) => {
      const li = document.createElement("li");
      li.textContent = h.player + ": " + h.move;
      moves.appendChild(li);
    });
    if (moves.lastChild) moves.lastChild.scrollIntoView({block: "nearest"});
    linkPicture();
    $("undo").disabled = !view.can_undo;
    $("hint").disabled = !view.your_turn;
    $("hint-out").innerHTML = "";
    document.body.dataset.over = view.over ? "1" : "0";
    document.body.dataset.yourTurn = view.your_turn ? "1" : "0";
    document.body.dataset.moves = String(view.history.length);
  }
  // The picture is clickable where its words name legal moves (a card, a tile, a pile): a click
  // highlights the moves it names; a second click on the same words plays the move if it names
  // exactly one.
  let armed = null;
  function matches(words) {
    const w = words.trim().toLowerCase();
    if (w.length < 3) return [];
    return Array.from(document.querySelectorAll("#legal button.move"))
      .filter((b) => b.textContent.toLowerCase().includes(w));
  }
  function linkPicture() {
    armed = null;
    document.querySelectorAll("#table svg text").forEach((t) => {
      if (!matches(t.textContent).length) return;
      t.classList.add("clickable");
      t.onclick = () => {
        const found = matches(t.textContent);
        if (armed === t && found.length === 1) { found[0].click(); return; }
        document.querySelectorAll("#legal button.move").forEach((b) => b.classList.remove("match"));
        found.forEach((b) => b.classList.add("match"));
        if (found.length) found[0].scrollIntoView({block: "nearest"});
        armed = t;
        $("hint-out").textContent = found.length === 1 ? "Click again to play: " + found[0].textContent
          : found.length + " moves mention " + t.textContent.trim() + ": highlighted above.";
      };
    });
  }
  async function call(method, path, body) {
    const r = await fetch("/api/game/" + TOKEN + path, {method: method,
      headers: {"Content-Type": "application/json"}, body: body ? JSON.stringify(body) : undefined});
    const data = await r.json();
    if (!r.ok) throw new Error(data.error || r.statusText);
    return data;
  }
  async function send(what, body) {
    if (busy) return;
    busy = true;
    document.body.dataset.busy = "1";
    try { draw(await call("POST", "/" + what, body)); }
    catch (e) { $("status").textContent = e.message; }
    finally { busy = false; document.body.dataset.busy = "0"; }
  }
  $("undo").onclick = () => send("undo");
  $("hint").onclick = async () => {
    try {
      const h = await call("GET", "/hint");
      let out = "<p class='muted'>" + text(h.agent) + " suggests (" + text(h.weight_kind || "its choice") + "):</p><ol class='cands'>";
      h.candidates.forEach((c) => { out += "<li>" + text(c.move) + " <span class='muted'>" + c.weight + "</span></li>"; });
      $("hint-out").innerHTML = out + "</ol>";
    } catch (e) { $("hint-out").textContent = e.message; }
  };
  draw(JSON.parse($("view-data").textContent));
})();
