// The table editor: progressively enhances a scenario textarea (templates/_editor.html).
// Without this file the textarea (scenario JSON) still works. Every word shown comes from the
// page (data-config, in the page's language); the engine's answers from the check endpoint.
(function () {
  "use strict";

  function el(tag, attrs, kids) {
    var n = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      var v = attrs[k];
      if (v === null || v === undefined || v === false) { return; }
      if (k === "text") { n.textContent = v; } else if (k === "cls") { n.className = v; } else { n.setAttribute(k, v === true ? "" : v); }
    });
    (kids || []).forEach(function (k) { if (k) { n.appendChild(typeof k === "string" ? document.createTextNode(k) : k); } });
    return n;
  }
  function fmt(s, params) {
    return s.replace(/%\((\w+)\)s/g, function (m, k) { return params[k] !== undefined ? params[k] : m; });
  }
  // each language's digits for 0-9 (the registry's, in the editor's config: Persian "۰۱۲۳۴۵۶۷۸۹")
  var DIGITS = {};
  function num(n, lang) {
    var s = String(n), digits = DIGITS[lang];
    return digits ? s.replace(/[0-9]/g, function (d) { return digits[+d]; }) : s;
  }
  var uid = 0;

  function Editor(box) {
    this.box = box;
    this.cfg = JSON.parse(box.dataset.config);
    DIGITS[this.cfg.lang] = this.cfg.digits;
    this.T = this.cfg.text;
    this.url = box.dataset.checkUrl;
    this.area = document.getElementById(box.dataset.field);
    this.kindSelect = box.dataset.kindSelect ? document.getElementById(box.dataset.kindSelect) : null;
    this.expectInput = box.dataset.expect ? document.getElementById(box.dataset.expect) : null;
    this.kind = box.dataset.kind || (this.kindSelect ? this.kindSelect.value : "") || "";
    this.cards = {};
    this.cfg.cards.forEach(function (c) { this.cards[c.code] = c; }, this);
    this.id = "ed" + (++uid);
    this.h = "h" + Math.min(6, Math.max(2, parseInt(box.dataset.heading, 10) || 2));
    this.seq = 0;
    this.result = null;
    // the page's own seating of the scenario it was served with (tutor.web.editor.seating), drawn
    // until the engine's first check answers; a stored question's own seat (fixed), sent with each check
    this.initial = box.dataset.seating ? JSON.parse(box.dataset.seating) : null;
    this.fixed = box.dataset.fixedYou ? JSON.parse(box.dataset.fixedYou) : null;
    this.s = null;
    this.target = null;
    // A fresh form says nothing is missing yet: "Set ..." messages wait until the form has been
    // sent back with messages (the page's own, beside its fields); until then they are a quiet list.
    this.showMissing = !!(this.area.form && this.area.form.querySelector(".field-error"));
    // a field the page flagged on the last save stays flagged until the teacher changes it
    this.sent = [this.area, this.expectInput].filter(function (n) { return n && n.getAttribute("aria-invalid") === "true"; })
      .map(function (n) { return { node: n, value: n.value }; });
    this.load(this.area.value);
    this.build();
    var self = this;
    this.area.addEventListener("change", function () {
      if (self.load(self.area.value)) { self.render(); self.ask(); return; }
      self.result = { facts: [], why: [], errors: { scenario: self.T.not_json }, answer: null, leaders: [] };
      self.render();
    });
    if (this.kindSelect) {
      this.kindSelect.addEventListener("change", function () { self.kind = self.kindSelect.value; self.fit(); self.render(); self.save(); });
    }
    if (this.expectInput) { this.expectInput.addEventListener("change", function () { self.ask(); }); }
    this.render();
    this.ask();
  }

  Editor.prototype.rulesets = function () {
    var k = this.cfg.kinds[this.kind];
    return this.cfg.rulesets.filter(function (r) { return !k || k.rulesets.indexOf(r.name) >= 0; });
  };
  Editor.prototype.rs = function () {
    var name = this.s.ruleset;
    return this.cfg.rulesets.filter(function (r) { return r.name === name; })[0];
  };
  Editor.prototype.asks = function () {
    var k = this.cfg.kinds[this.kind];
    return this.rs().asks.filter(function (a) { return !k || k.asks.indexOf(a.ask) >= 0; });
  };
  Editor.prototype.askSpec = function () {
    var ask = this.s.ask;
    return this.asks().filter(function (a) { return a.ask === ask; })[0];
  };
  Editor.prototype.players = function () { return this.s.players || this.rs().players[0]; };
  // The learner's seat, at the bottom, and every seat's name and number from there, as the
  // learner's page shows them (the engine's check says; until it has answered, the page's seating;
  // seat 0 without one).
  Editor.prototype.fresh = function () {
    var p = this.players();
    return [this.result, this.initial].filter(function (r) { return r && Array.isArray(r.seats) && r.seats.length === p; })[0] || null;
  };
  // The stored question's own seat while the form holds its kind and game (tutor.web.editor.fixed_you).
  Editor.prototype.fixedYou = function () {
    var f = this.fixed;
    return f && f.kind === this.kind && f.ruleset === this.s.ruleset && typeof f.you === "number" ? f.you : null;
  };
  Editor.prototype.you = function () { var r = this.fresh(); return r ? r.you : 0; };
  Editor.prototype.seatNames = function () { var r = this.fresh(); return r ? r.seats : this.rs().seats[String(this.players())]; };
  Editor.prototype.sideNames = function () {
    var r = this.fresh();
    return r && Array.isArray(r.sides) && r.sides.length ? r.sides : this.rs().sides[String(this.players())];
  };

  // Read the textarea; false if it does not hold a scenario object.
  Editor.prototype.load = function (text) {
    var v;
    try { v = JSON.parse(text); } catch (e) { v = null; }
    if (!v || typeof v !== "object" || Array.isArray(v)) {
      if (this.s) { return false; }
      v = {};
    }
    this.s = v;
    this.fit();
    return true;
  };

  // Make the scenario one the menus can show (a ruleset and ask of the kind).
  Editor.prototype.fit = function () {
    var rss = this.rulesets();
    var s = this.s;
    if (!rss.some(function (r) { return r.name === s.ruleset; })) { s.ruleset = rss[0].name; }
    var asks = this.asks();
    if (!asks.some(function (a) { return a.ask === s.ask; })) { s.ask = asks[0].ask; }
    if (s.players && this.rs().players.indexOf(s.players) < 0) { delete s.players; }
    var fields = this.askSpec().fields;
    if (!this.target || !fields.some(function (f) { return f.name === this.target; }, this)) {
      var cardsField = fields.filter(function (f) { return /card|tricks/.test(f.widget); })[0];
      this.target = cardsField ? cardsField.name : null;
    }
  };

  // The scenario as written to the textarea and sent to the engine: the common fields and the
  // ask's own; a field of another ask is kept aside (it comes back if that ask is chosen again),
  // an unknown field is kept so that the engine can name it.
  Editor.prototype.scenario = function () {
    var s = this.s;
    var out = {};
    var fields = this.askSpec().fields.map(function (f) { return f.name; });
    var others = {};
    this.cfg.rulesets.forEach(function (r) { r.asks.forEach(function (a) { a.fields.forEach(function (f) { others[f.name] = true; }); }); });
    ["ruleset", "ask", "players", "options", "target"].concat(fields).forEach(function (k) {
      if (s[k] !== undefined && s[k] !== null && !(k === "options" && !Object.keys(s[k]).length)) { out[k] = s[k]; }
    });
    Object.keys(s).forEach(function (k) {
      if (out[k] === undefined && !others[k] && ["ruleset", "ask", "players", "options", "target"].indexOf(k) < 0) { out[k] = s[k]; }
    });
    return out;
  };

  Editor.prototype.save = function () {
    this.area.value = JSON.stringify(this.scenario(), null, 1).replace(/\n\s*/g, " ");
    this.area.dispatchEvent(new Event("input", { bubbles: true }));
    this.ask();
  };

  // ---------------------------------------------------------------- building

  Editor.prototype.build = function () {
    var T = this.T;
    var self = this;
    this.box.textContent = "";
    this.box.classList.add("js");
    this.controls = el("div", { cls: "ed-controls" });
    this.fieldsBox = el("div", { cls: "ed-fields" });
    this.felt = el("div", { cls: "ed-table" });
    this.zones = el("div", { cls: "ed-zones" });
    this.pickerBox = el("div", { cls: "ed-picker" });
    this.out = el("div", { cls: "ed-answer", role: "status", "aria-live": "polite" });
    var place = el("fieldset", { cls: "ed-target" }, [el("legend", { text: T.place_into })]);
    this.targetBox = el("div", { cls: "choice-row" });
    place.appendChild(this.targetBox);
    this.placeBox = place;
    var helpId = this.id + "-help";
    var grid = el("div", { cls: "ed-grid", role: "group", "aria-label": T.picker, "aria-describedby": helpId, dir: "ltr" });
    this.pickButtons = [];
    this.cfg.suits.forEach(function (suit) {
      var row = el("div", { cls: "ed-row", role: "group", "aria-label": suit.name });
      self.cfg.cards.filter(function (c) { return c.suit === suit.letter; }).forEach(function (c) {
        var b = el("button", { type: "button", cls: "ed-pick", "data-card": c.code, tabindex: "-1" }, [face(c, "small")]);
        b.addEventListener("click", function () { self.place(c.code); });
        b.addEventListener("keydown", function (e) { self.pickKey(e, b); });
        row.appendChild(b);
        self.pickButtons.push(b);
      });
      grid.appendChild(row);
    });
    this.pickButtons[0].tabIndex = 0;
    this.pickerBox.appendChild(el(this.h, { cls: "ed-h", text: T.picker }));
    this.pickerBox.appendChild(place);
    this.pickerBox.appendChild(el("p", { cls: "meta", id: helpId, text: T.picker_help }));
    this.pickerBox.appendChild(grid);
    [this.controls, this.fieldsBox, this.felt, this.out, this.zones, this.pickerBox].forEach(function (n) { self.box.appendChild(n); });
  };

  function face(c, extra) {
    return el("span", { cls: "card " + (c.red ? "red" : "black") + " s-" + c.suit + (extra ? " " + extra : ""), "aria-hidden": "true" }, [
      el("span", { cls: "ix" }, [el("span", { cls: "r", text: c.rank }), el("span", { cls: "s", text: c.symbol })]),
      el("span", { cls: "pip", text: c.symbol })]);
  }

  Editor.prototype.pickKey = function (e, b) {
    var i = this.pickButtons.indexOf(b);
    var to = null;
    if (e.key === "ArrowRight") { to = i % 13 === 12 ? i - 12 : i + 1; }
    else if (e.key === "ArrowLeft") { to = i % 13 === 0 ? i + 12 : i - 1; }
    else if (e.key === "ArrowDown") { to = (i + 13) % 52; }
    else if (e.key === "ArrowUp") { to = (i + 39) % 52; }
    else if (e.key === "Home") { to = i - (i % 13); }
    else if (e.key === "End") { to = i - (i % 13) + 12; }
    else if (e.key === "Delete" || e.key === "Backspace") { e.preventDefault(); this.remove(b.dataset.card); return; }
    if (to === null) { return; }
    e.preventDefault();
    this.pickButtons.forEach(function (x) { x.tabIndex = -1; });
    this.pickButtons[to].tabIndex = 0;
    this.pickButtons[to].focus();
  };

  // ---------------------------------------------------------------- card moves

  Editor.prototype.placedAt = function (code) {
    var s = this.s;
    var found = null;
    this.askSpec().fields.forEach(function (f) {
      var v = s[f.name];
      if (f.widget === "card" && v === code) { found = found || f.name; }
      if (f.widget === "cards" && Array.isArray(v) && v.indexOf(code) >= 0) { found = found || f.name; }
      if (f.widget === "tricks" && Array.isArray(v)) {
        v.forEach(function (t) { if (Array.isArray(t) && t.indexOf(code) >= 0) { found = found || f.name; } });
      }
    });
    return found;
  };

  Editor.prototype.place = function (code) {
    if (!this.target || this.placedAt(code)) { return; }
    var f = this.fieldSpec(this.target);
    var s = this.s;
    if (f.widget === "card") { s[f.name] = code; }
    else if (f.widget === "cards") { s[f.name] = (Array.isArray(s[f.name]) ? s[f.name] : []).concat([code]); }
    else if (f.widget === "tricks") {
      var tricks = Array.isArray(s[f.name]) ? s[f.name] : [];
      var last = tricks[tricks.length - 1];
      if (!Array.isArray(last) || last.length >= this.players()) { tricks.push([code]); } else { last.push(code); }
      s[f.name] = tricks;
    }
    this.render();
    this.save();
  };

  Editor.prototype.remove = function (code) {
    var s = this.s;
    this.askSpec().fields.forEach(function (f) {
      var v = s[f.name];
      if (f.widget === "card" && v === code) { delete s[f.name]; }
      if (f.widget === "cards" && Array.isArray(v)) { s[f.name] = v.filter(function (c) { return c !== code; }); }
      if (f.widget === "tricks" && Array.isArray(v)) {
        s[f.name] = v.map(function (t) { return Array.isArray(t) ? t.filter(function (c) { return c !== code; }) : t; })
          .filter(function (t) { return !Array.isArray(t) || t.length; });
      }
    });
    this.render();
    this.save();
  };

  Editor.prototype.fieldSpec = function (name) {
    return this.askSpec().fields.filter(function (f) { return f.name === name; })[0];
  };

  // ---------------------------------------------------------------- drawing

  Editor.prototype.render = function () {
    var focusKey = document.activeElement && this.box.contains(document.activeElement) ? document.activeElement.dataset.key : null;
    this.renderControls();
    this.renderFields();
    this.renderTable();
    this.renderZones();
    this.renderPicker();
    this.renderAnswer();
    if (focusKey) {
      var again = this.box.querySelector("[data-key='" + focusKey + "']");
      if (again) { again.focus(); }
    }
  };

  Editor.prototype.select = function (key, label, options, value, onchange) {
    var id = this.id + "-" + key;
    var sel = el("select", { id: id, "data-key": key });
    options.forEach(function (o) { sel.appendChild(el("option", { value: String(o[0]), text: o[1], selected: String(o[0]) === String(value) })); });
    sel.addEventListener("change", function () { onchange(sel.value); });
    return el("div", { cls: "field", "data-field": key }, [el("label", { "for": id, text: label }), sel]);
  };

  Editor.prototype.renderControls = function () {
    var T = this.T;
    var self = this;
    var s = this.s;
    var rs = this.rs();
    var lang = this.cfg.lang;
    this.controls.textContent = "";
    this.controls.appendChild(this.select("ruleset", T.game, this.rulesets().map(function (r) { return [r.name, r.title]; }), s.ruleset,
      function (v) { s.ruleset = v; delete s.players; s.options = {}; self.fit(); self.render(); self.save(); }));
    this.controls.appendChild(this.select("ask", T.ask, this.asks().map(function (a) { return [a.ask, a.title]; }), s.ask,
      function (v) { s.ask = v; self.fit(); self.render(); self.save(); }));
    if (rs.players.length > 1) {
      this.controls.appendChild(this.select("players", T.players, rs.players.map(function (p) { return [p, num(p, lang)]; }), this.players(),
        function (v) { s.players = parseInt(v, 10); self.render(); self.save(); }));
    }
    var opts = el("details", { cls: "ed-options", open: !!this.optionsOpen }, [el("summary", { text: T.options })]);
    opts.addEventListener("toggle", function () { self.optionsOpen = opts.open; });
    var body = el("div", { cls: "ed-option-list" });
    s.options = s.options && typeof s.options === "object" ? s.options : {};
    rs.options.forEach(function (o) {
      var id = self.id + "-opt-" + o.name;
      var cur = s.options[o.name] !== undefined ? s.options[o.name] : o.default;
      var input;
      if (o.type === "bool") {
        input = el("input", { type: "checkbox", id: id, checked: cur === true, "data-key": "opt-" + o.name });
        input.addEventListener("change", function () { setOpt(o, input.checked); });
        body.appendChild(el("div", { cls: "field check", "data-field": "options." + o.name }, [input, el("label", { "for": id, text: o.label })]));
        return;
      }
      if (o.type === "choice") {
        input = el("select", { id: id, "data-key": "opt-" + o.name });
        o.choices.forEach(function (c) { input.appendChild(el("option", { value: JSON.stringify(c[0]), text: c[1], selected: c[0] === cur })); });
        input.addEventListener("change", function () { setOpt(o, JSON.parse(input.value)); });
      } else {
        input = el("input", { type: "number", id: id, min: o.min, max: o.max, value: cur, inputmode: "numeric", "data-key": "opt-" + o.name });
        input.addEventListener("change", function () { setOpt(o, parseInt(input.value, 10)); });
      }
      body.appendChild(el("div", { cls: "field", "data-field": "options." + o.name }, [el("label", { "for": id, text: o.label }), input]));
    });
    function setOpt(o, v) {
      if (v === o.default || (typeof v === "number" && isNaN(v))) { delete s.options[o.name]; } else { s.options[o.name] = v; }
      self.save();
    }
    opts.appendChild(body);
    this.controls.appendChild(opts);
  };

  Editor.prototype.seatOptions = function () {
    var T = this.T;
    var lang = this.cfg.lang;
    return this.seatNames().map(function (n, i) {
      return [i, fmt(T.seat_of, { who: n.who, number: n.number })];
    });
  };

  Editor.prototype.renderFields = function () {
    var self = this;
    var s = this.s;
    var T = this.T;
    var lang = this.cfg.lang;
    this.fieldsBox.textContent = "";
    this.askSpec().fields.forEach(function (f) {
      var id = self.id + "-f-" + f.name;
      if (f.widget === "suit" || f.widget === "choice") {
        var fs = el("fieldset", { cls: "field-set", "data-field": f.name }, [el("legend", { text: f.label })]);
        var row = el("div", { cls: "choice-row" });
        var choices = f.widget === "suit" ? self.cfg.suits.map(function (x) { return [x.letter, x.symbol + " " + x.name, x.red]; }) : f.choices;
        if (!f.required) { choices = [["", T.not_set]].concat(choices); }
        choices.forEach(function (c) {
          var rid = id + "-" + (c[0] || "none");
          var cur = s[f.name] === undefined || s[f.name] === null ? "" : String(s[f.name]).toUpperCase();
          var input = el("input", { type: "radio", name: id, id: rid, value: c[0], checked: cur === String(c[0]).toUpperCase(), "data-key": rid });
          input.addEventListener("change", function () {
            if (c[0] === "") { delete s[f.name]; } else { s[f.name] = c[0]; }
            self.render(); self.save();
          });
          row.appendChild(el("label", { cls: "opt" + (c[2] ? " red" : ""), "for": rid }, [input, c[1]]));
        });
        fs.appendChild(row);
        fs.appendChild(el("p", { cls: "field-error", id: id + "-err" }));
        self.fieldsBox.appendChild(fs);
      } else if (f.widget === "seat") {
        var opts = self.seatOptions();
        if (!f.required) { opts = [["", T.not_set]].concat(opts); }
        var cur = s[f.name] === undefined || s[f.name] === null ? "" : s[f.name];
        var box = self.select("f-" + f.name, f.label, opts, cur, function (v) {
          if (v === "") { delete s[f.name]; } else { s[f.name] = parseInt(v, 10); }
          self.render(); self.save();
        });
        box.dataset.field = f.name;
        box.appendChild(el("p", { cls: "field-error", id: id + "-err" }));
        self.fieldsBox.appendChild(box);
      } else if (f.widget === "side-list") {
        var sides = self.sideNames();
        var fs2 = el("fieldset", { cls: "field-set", "data-field": f.name }, [el("legend", { text: f.label })]);
        var row2 = el("div", { cls: "points-row" });
        var vals = Array.isArray(s[f.name]) ? s[f.name] : null;
        sides.forEach(function (name, i) {
          var iid = id + "-" + i;
          var input = el("input", { type: "number", id: iid, min: "0", inputmode: "numeric", "data-key": iid,
            value: vals && vals[i] !== undefined ? vals[i] : "" });
          input.addEventListener("change", function () {
            var list = sides.map(function (x, j) {
              var n = parseInt(self.box.querySelector("#" + id + "-" + j).value, 10);
              return isNaN(n) ? null : n;
            });
            if (list.every(function (x) { return x === null; })) { delete s[f.name]; }
            else { s[f.name] = list.map(function (x) { return x === null ? 0 : x; }); }
            self.save();
          });
          row2.appendChild(el("div", { cls: "field" }, [el("label", { "for": iid, text: name }), input]));
        });
        fs2.appendChild(row2);
        fs2.appendChild(el("p", { cls: "field-error", id: id + "-err" }));
        self.fieldsBox.appendChild(fs2);
      }
    });
  };

  // The seat that played each card of the trick on the table (from the engine's leaders).
  Editor.prototype.trickOnTable = function () {
    var s = this.s;
    var p = this.players();
    var r = this.result && this.result.leaders ? this.result : this.initial;
    var leaders = r && r.leaders ? r.leaders : [];
    if (Array.isArray(s.trick)) {
      var lead = leaders.length ? leaders[0] : (this.fieldSpec("leader") ? (s.leader || 0) : ((this.you() - s.trick.length) % p + p) % p);
      return { cards: s.trick, leader: lead };
    }
    if (Array.isArray(s.tricks) && s.tricks.length) {
      var n = s.tricks.length - 1;
      return { cards: s.tricks[n], leader: leaders[n] !== undefined ? leaders[n] : null, n: n };
    }
    return null;
  };

  Editor.prototype.renderTable = function () {
    var T = this.T;
    var s = this.s;
    var rs = this.rs();
    var p = this.players();
    var names = this.seatNames();
    var you = this.you();
    var around = p === 2 ? ["bottom", "top"] : p === 3 ? (rs.anticlockwise ? ["bottom", "right", "left"] : ["bottom", "left", "right"])
      : (rs.anticlockwise ? ["bottom", "right", "top", "left"] : ["bottom", "left", "top", "right"]);
    var pos = [];  // each seat's place: the learner's seat at the bottom, the others in play order from there
    for (var k = 0; k < p; k++) { pos.push(around[(k - you + p) % p]); }
    var felt = el("div", { cls: "felt p" + p, dir: "ltr", role: "group", "aria-label": T.table });
    var trick = this.trickOnTable();
    var win = this.result && this.result.answer ? this.result.answer.card : null;
    var center = el("div", { cls: "center" });
    for (var seat = 0; seat < p; seat++) {
      var badges = [];
      if (s.dealer === seat && this.fieldSpec("dealer")) { badges.push(el("span", { cls: "badge dealer", text: this.fieldSpec("dealer").label })); }
      if (s.hakem === seat && this.fieldSpec("hakem")) { badges.push(el("span", { cls: "badge hakem", text: this.fieldSpec("hakem").label })); }
      felt.appendChild(el("div", { cls: "seat seat-" + pos[seat] + (seat === you ? " me" : ""), "data-seat": String(seat) }, [
        el("span", { cls: "who", text: names[seat].who, dir: "auto" }), el("span", { cls: "seat-no", text: names[seat].number, dir: "auto" })].concat(badges)));
    }
    if (trick && trick.leader !== null) {
      var lastWin = Array.isArray(s.tricks) && this.result && this.result.answer && this.result.answer.trick_winners ?
        this.result.answer.trick_winners[trick.n] : null;
      trick.cards.forEach(function (code, i) {
        var c = this.cards[String(code).toUpperCase()];
        if (!c) { return; }
        var who = (trick.leader + i) % p;
        var isWin = win === c.code || (lastWin !== null && lastWin !== undefined && lastWin === who && trick.cards.length === p);
        center.appendChild(el("div", { cls: "slot slot-" + pos[who] }, [
          el("span", { cls: "cardbox", role: "img", "aria-label": c.label + " — " + names[who].who + (isWin ? " — " + T.wins : "") },
            [face(c, isWin ? "win" : "")]),
          el("span", { cls: "order", "aria-hidden": "true", text: num(i + 1, this.cfg.lang) })]));
      }, this);
    }
    var ups = [];
    ["card", "turn_ups"].forEach(function (name) {
      var f = this.fieldSpec(name);
      var v = s[name];
      if (!f || v === undefined) { return; }
      (Array.isArray(v) ? v : [v]).forEach(function (code) {
        var c = this.cards[String(code).toUpperCase()];
        if (c) { ups.push(el("span", { cls: "cardbox", role: "img", "aria-label": c.label }, [face(c, "small")])); }
      }, this);
    }, this);
    if (ups.length) { center.appendChild(el("div", { cls: "turnups" }, ups)); }
    felt.appendChild(center);
    if (s.trump && this.fieldSpec("trump")) {
      var suit = this.cfg.suits.filter(function (x) { return x.letter === String(s.trump).toUpperCase(); })[0];
      if (suit) {
        felt.appendChild(el("div", { cls: "trump-box" }, [el("span", { cls: "muted", text: this.fieldSpec("trump").label }),
          el("span", { cls: "trump-sym " + (suit.red ? "red" : "black") + " s-" + suit.letter, "aria-hidden": "true", text: suit.symbol }),
          el("span", { text: suit.name })]));
      }
    }
    this.felt.textContent = "";
    this.felt.appendChild(felt);
  };

  Editor.prototype.zoneCard = function (code, path, mark) {
    var T = this.T;
    var self = this;
    var c = this.cards[String(code).toUpperCase()];
    var label = c ? c.label : String(code);
    var extra = mark === "ok" ? " — " + T.legal : mark === "bad" ? " — " + T.illegal : mark === "win" ? " — " + T.wins : "";
    var b = el("button", { type: "button", cls: "ed-placed", "data-key": "placed-" + code, "data-path": path,
      "aria-label": fmt(T.remove, { card: label }) + extra }, [c ? face(c, mark || "") : el("span", { cls: "bad-card", text: String(code) })]);
    if (mark === "ok" || mark === "bad") { b.appendChild(el("span", { cls: "ed-mark " + mark, "aria-hidden": "true", text: mark === "ok" ? "✓" : "✗" })); }
    b.addEventListener("click", function () { self.remove(code); });
    b.addEventListener("keydown", function (e) {
      if (e.key !== "Delete" && e.key !== "Backspace") { return; }
      e.preventDefault();
      var zone = b.closest(".ed-zone");
      var all = Array.prototype.slice.call(zone.querySelectorAll(".ed-placed"));
      var at = all.indexOf(b);
      var field = zone.dataset.field;
      self.remove(code);
      // keep the keyboard in place: the next card of the same place, else the picker
      var left = self.box.querySelectorAll(".ed-zone[data-field='" + field + "'] .ed-placed");
      var next = left[Math.min(at, left.length - 1)];
      (next || self.box.querySelector(".ed-pick[tabindex='0']")).focus();
    });
    return b;
  };

  Editor.prototype.renderZones = function () {
    var self = this;
    var s = this.s;
    var T = this.T;
    var lang = this.cfg.lang;
    var answer = this.result && this.result.answer;
    var legal = answer && Array.isArray(answer.legal) ? answer.legal : null;
    this.zones.textContent = "";
    this.targetBox.textContent = "";
    var cardFields = this.askSpec().fields.filter(function (f) { return /card|tricks/.test(f.widget); });
    this.placeBox.hidden = cardFields.length < 2;
    cardFields.forEach(function (f) {
      var id = self.id + "-z-" + f.name;
      var rid = id + "-target";
      var radio = el("input", { type: "radio", name: self.id + "-target", id: rid, value: f.name, checked: self.target === f.name, "data-key": rid });
      radio.addEventListener("change", function () { self.target = f.name; self.render(); });
      self.targetBox.appendChild(el("label", { cls: "opt", "for": rid }, [radio, f.label]));
      var zone = el("section", { cls: "ed-zone" + (self.target === f.name ? " active" : ""), "data-field": f.name, "aria-labelledby": id + "-h" },
        [el(self.h, { cls: "ed-h", id: id + "-h", text: f.label })]);
      var v = s[f.name];
      var list = el("div", { cls: "hand-cards" });
      if (f.widget === "tricks") {
        list = el("div", { cls: "ed-tricks" });
        var leaders = self.result ? self.result.leaders : (self.initial ? self.initial.leaders : []);
        var winners = answer && answer.trick_winners ? answer.trick_winners : [];
        (Array.isArray(v) ? v : []).forEach(function (t, ti) {
          var row = el("div", { cls: "trick-row", "data-path": f.name + "[" + ti + "]" }, [el("p", { cls: "ed-trick-n", text: fmt(T.trick_n, { n: num(ti + 1, lang) }) })]);
          var cards = el("div", { cls: "trick-cards" });
          (Array.isArray(t) ? t : []).forEach(function (code, i) {
            var who = leaders[ti] !== undefined ? (leaders[ti] + i) % self.players() : null;
            var mark = who !== null && winners[ti] === who ? "win" : "";
            var names = self.seatNames();
            cards.appendChild(el("div", { cls: "trick-card" }, [self.zoneCard(code, f.name + "[" + ti + "][" + i + "]", mark),
              el("span", { cls: "small-who", text: who !== null ? names[who].who : "" })]));
          });
          row.appendChild(cards);
          row.appendChild(el("p", { cls: "field-error" }));
          list.appendChild(row);
        });
      } else {
        (f.widget === "card" ? (v ? [v] : []) : (Array.isArray(v) ? v : [])).forEach(function (code, i) {
          var mark = legal && f.name === "hand" ? (legal.indexOf(String(code).toUpperCase()) >= 0 ? "ok" : "bad") : "";
          list.appendChild(self.zoneCard(code, f.widget === "card" ? f.name : f.name + "[" + i + "]", mark));
        });
      }
      if (!list.childNodes.length) { list.appendChild(el("p", { cls: "muted", text: T.empty })); }
      zone.appendChild(list);
      zone.appendChild(el("p", { cls: "field-error", id: id + "-err" }));
      self.zones.appendChild(zone);
    });
  };

  Editor.prototype.renderPicker = function () {
    var T = this.T;
    var self = this;
    this.pickButtons.forEach(function (b) {
      var c = self.cards[b.dataset.card];
      var at = self.placedAt(c.code);
      b.classList.toggle("placed", !!at);
      b.setAttribute("aria-label", at ? fmt(T.in_place, { card: c.label }) : c.label);
      b.setAttribute("aria-disabled", at ? "true" : "false");
    });
    this.pickerBox.hidden = !this.target;
  };

  Editor.prototype.renderAnswer = function () {
    var T = this.T;
    var r = this.result;
    var box = this.out;
    box.textContent = "";
    this.box.querySelectorAll(".field-error").forEach(function (p) { p.textContent = ""; });
    this.box.querySelectorAll("[aria-invalid]").forEach(function (n) { n.removeAttribute("aria-invalid"); });
    this.box.querySelectorAll(".has-error").forEach(function (n) { n.classList.remove("has-error"); });
    var jsonError = this.area.parentNode.querySelector(".field-error.json-error");
    if (jsonError) { jsonError.textContent = ""; }
    if (this.expectInput) {
      this.expectInput.removeAttribute("aria-invalid");
      this.keepSent(this.expectInput);
      var old = this.expectInput.parentNode.querySelector(".field-error.expect-error");
      if (old) { old.textContent = ""; }
    }
    if (!r) { box.appendChild(el("p", { cls: "muted", text: T.checking })); return; }
    box.appendChild(el(this.h, { cls: "ed-h", text: T.answer }));
    if (r.facts.length) {
      var dl = el("dl", { cls: "answer-lines" });
      r.facts.forEach(function (f) { dl.appendChild(el("div", {}, [el("dt", { text: f.label }), el("dd", { text: f.value, "data-field": f.field })])); });
      box.appendChild(dl);
    }
    if (r.why.length) {
      var ul = el("ul", { cls: "why" });
      r.why.forEach(function (w) { ul.appendChild(el("li", {}, [w.text + " ", el("span", { cls: "meta", text: "(" + w.rule + ")" })])); });
      box.appendChild(ul);
    }
    var missing = this.showMissing ? [] : (r.missing || []);
    var keys = Object.keys(r.errors).filter(function (path) { return missing.indexOf(path) < 0; });
    var todo = Object.keys(r.errors).filter(function (path) { return missing.indexOf(path) >= 0; });
    if (todo.length) {  // not an error yet: what is still to set, said quietly
      box.appendChild(el("p", { cls: "muted ed-todo", text: todo.map(function (path) { return r.errors[path]; }).join(" ") }));
    }
    if (keys.length) {
      var errs = el("ul", { cls: "ed-errors" });
      var self = this;
      keys.forEach(function (path) {
        errs.appendChild(el("li", { text: r.errors[path] }));
        self.showError(path, r.errors[path]);
      });
      if (!r.answer) { box.appendChild(el("p", { cls: "form-error", text: T.fix })); }
      box.appendChild(errs);
    }
    this.area.setAttribute("aria-invalid", keys.length && !r.answer ? "true" : "false");
    this.keepSent(this.area);
  };

  // The page's own mark on a field it refused on save, kept while the field holds what was sent.
  Editor.prototype.keepSent = function (node) {
    this.sent.forEach(function (x) { if (x.node === node && node.value === x.value) { node.setAttribute("aria-invalid", "true"); } });
  };

  // Put the message at the field (or card, or trick) the path names.
  Editor.prototype.showError = function (path, message) {
    var base = path.replace(/[.[].*$/, "");
    var target = null;
    var exact = this.box.querySelector("[data-path='" + path + "']");
    if (exact) {
      exact.setAttribute("aria-invalid", "true");
      exact.classList.add("has-error");
      if (exact.classList.contains("trick-row")) { target = exact.querySelector(".field-error"); }
    }
    if (!target) {
      var holder = path.indexOf("options.") === 0 ? this.box.querySelector("[data-field='" + path + "']") : this.box.querySelector("[data-field='" + base + "']");
      if (holder) {
        holder.classList.add("has-error");
        target = holder.querySelector(":scope > .field-error");
        if (!target) { target = el("p", { cls: "field-error" }); holder.appendChild(target); }
        if (path.indexOf("options.") === 0) { var det = this.box.querySelector(".ed-options"); if (det) { det.open = true; } }
      }
    }
    if (path === "scenario") {
      target = this.area.parentNode.querySelector(".field-error.json-error");
      if (!target) {
        target = el("p", { cls: "field-error json-error", id: this.id + "-json-err" });
        this.area.insertAdjacentElement("afterend", target);
        var by = this.area.getAttribute("aria-describedby");
        this.area.setAttribute("aria-describedby", (by ? by + " " : "") + target.id);
      }
      target.textContent = "";
    }
    if (path.indexOf("expect") === 0 && this.expectInput) {
      this.expectInput.setAttribute("aria-invalid", "true");
      var saved = document.getElementById(this.expectInput.id + "-error");  // the page's message from the last save
      if (saved && saved.textContent.trim() === message.trim()) { return; }  // already said beside the field
      target = this.expectInput.parentNode.querySelector(".field-error.expect-error");
      if (!target) {
        target = el("p", { cls: "field-error expect-error", id: this.id + "-expect-err" });
        this.expectInput.insertAdjacentElement("afterend", target);
        var described = this.expectInput.getAttribute("aria-describedby");
        this.expectInput.setAttribute("aria-describedby", (described ? described + " " : "") + target.id);
      }
    }
    if (target) { target.textContent = (target.textContent ? target.textContent + " " : "") + message; }
  };

  // ---------------------------------------------------------------- the engine

  Editor.prototype.ask = function () {
    var self = this;
    clearTimeout(this.timer);
    this.timer = setTimeout(function () { self.send(); }, 200);
  };

  Editor.prototype.send = function () {
    var self = this;
    var seq = ++this.seq;
    var body = { scenario: this.scenario(), lang: this.cfg.lang };
    if (this.kind) { body.kind = this.kind; }
    if (this.fixedYou() !== null) { body.you = this.fixedYou(); }
    if (this.expectInput && this.expectInput.value.trim()) {
      if (this.box.dataset.expectFormat === "key") {
        body.key = this.expectInput.value;  // a teacher's key as a learner types it, judged by the engine
      } else {
        try { body.expect = JSON.parse(this.expectInput.value); } catch (e) { body.expect = null; }
      }
    }
    this.box.setAttribute("aria-busy", "true");
    fetch(this.url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), credentials: "same-origin" })
      .then(function (resp) { return resp.json().then(function (data) { return { ok: resp.ok, data: data }; }); })
      .then(function (res) {
        if (seq !== self.seq) { return; }
        self.box.removeAttribute("aria-busy");
        if (!res.ok) {
          self.result = { facts: [], why: [], errors: { "": res.data.error ? res.data.error.message : self.T.failed }, answer: null, leaders: [] };
        } else {
          self.result = res.data;
        }
        self.render();
        self.area.dispatchEvent(new CustomEvent("editor:answer", { detail: self.result, bubbles: true }));
      })
      .catch(function () {
        if (seq !== self.seq) { return; }
        self.box.removeAttribute("aria-busy");
        self.result = { facts: [], why: [], errors: { "": self.T.failed }, answer: null, leaders: [] };
        self.render();
      });
  };

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".table-editor[data-config]").forEach(function (box) { box.editor = new Editor(box); });
  });
})();
