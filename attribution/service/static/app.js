// The attribution page: plain JS, no build step, nothing fetched but this service's own API.
// Every piece of text from the user or the API goes into the DOM as a text node (textContent),
// never through innerHTML.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);

  const VERDICT_LABEL = {
    supported: "supported",
    partially_supported: "partially supported",
    unsupported: "unsupported",
    contradicted: "contradicted",
  };
  const MARKER_CLASS = {
    supported: "marker-supported",
    unsupported: "marker-unsupported",
    wrong_source: "marker-wrong",
    unknown_number: "marker-unknown",
    unverifiable: "marker-unverifiable",
  };

  /** An element with attributes and children (strings become text nodes). */
  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs)) {
      if (value === undefined || value === null) continue;
      if (name === "className") node.className = value;
      else node.setAttribute(name, String(value));
    }
    for (const child of children) {
      if (child === undefined || child === null) continue;
      node.append(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return node;
  }

  function setStatus(text, isError = false) {
    const status = $("status");
    status.textContent = text;
    status.classList.toggle("error", isError);
  }

  async function errorMessage(response) {
    try {
      const body = await response.json();
      if (body && body.error && body.error.message) return body.error.message;
    } catch (_) {
      // not JSON: fall back to the status line
    }
    return `${response.status} ${response.statusText}`;
  }

  // -- input ------------------------------------------------------------------------------

  async function loadExample() {
    setStatus("Loading the example…");
    const response = await fetch("/v1/example");
    if (!response.ok) {
      setStatus(`Could not load the example: ${await errorMessage(response)}`, true);
      return;
    }
    const example = await response.json();
    $("answer").value = example.answer;
    $("tool-outputs").value = JSON.stringify(example.toolOutputs, null, 2);
    setStatus("Example loaded.");
  }

  async function attribute(event) {
    event.preventDefault();
    let toolOutputs;
    try {
      toolOutputs = JSON.parse($("tool-outputs").value);
    } catch (err) {
      setStatus(`Tool outputs are not valid JSON: ${err.message}`, true);
      $("tool-outputs").focus();
      return;
    }
    const button = $("attribute");
    const result = $("result");
    button.disabled = true;
    result.setAttribute("aria-busy", "true");
    setStatus("Attributing…");
    try {
      const response = await fetch("/v1/attributions", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          answer: $("answer").value,
          toolOutputs,
          // The page reviews what the model wrote: it keeps unknown numbers in the answer (the
          // service drops them by default) to show each as a flagged pill.
          options: { fillMissing: true, dropUnknown: false },
          // JS strings index UTF-16 code units: ask for offsets in that unit.
          offsetUnit: "utf16",
        }),
      });
      if (!response.ok) {
        setStatus(`Attribution failed: ${await errorMessage(response)}`, true);
        return;
      }
      render(await response.json());
      setStatus("Done.");
    } catch (err) {
      setStatus(`Attribution failed: ${err.message}`, true);
    } finally {
      button.disabled = false;
      result.setAttribute("aria-busy", "false");
    }
  }

  // -- offsets ----------------------------------------------------------------------------

  /** How a claim's text changed between the input and the output answer (markers added or
   * rewritten): the common prefix and suffix lengths. */
  function claimDiff(claim, answer) {
    const before = claim.text;
    const after = answer.slice(claim.outputStart, claim.outputEnd);
    const most = Math.min(before.length, after.length);
    let prefix = 0;
    while (prefix < most && before[prefix] === after[prefix]) prefix++;
    let suffix = 0;
    while (
      suffix < most - prefix &&
      before[before.length - 1 - suffix] === after[after.length - 1 - suffix]
    ) {
      suffix++;
    }
    return { prefix, suffix, after };
  }

  /** An offset into the input answer, mapped into the output answer. The engine changes text
   * only inside claims, so outside them the shift is the one left by the previous claim. */
  function toOutput(offset, claims, diffs) {
    let shift = 0;
    for (const claim of claims) {
      if (offset >= claim.end) {
        shift = claim.outputEnd - claim.end;
        continue;
      }
      if (offset >= claim.start) {
        const { prefix } = diffs.get(claim.index);
        return offset - claim.start < prefix
          ? claim.outputStart + (offset - claim.start)
          : claim.outputEnd - (claim.end - offset);
      }
      break;
    }
    return offset + shift;
  }

  /** Pill groups: output-answer ranges that render as citation pills instead of text. */
  function collectPills(result) {
    const answer = result.answer;
    const claims = [...result.claims].sort((a, b) => a.start - b.start);
    const diffs = new Map(claims.map((c) => [c.index, claimDiff(c, answer)]));
    const groups = new Map();

    for (const marker of result.markers) {
      const key = `${marker.start}:${marker.end}`;
      let group = groups.get(key);
      if (!group) {
        let start = toOutput(marker.start, claims, diffs);
        if (answer.slice(start, start + marker.marker.length) !== marker.marker) {
          start = answer.indexOf(marker.marker, Math.max(0, start - 8));
        }
        if (start < 0) continue; // rewritten past recognition: the claim still shows it
        group = { start, end: start + marker.marker.length, label: marker.marker, items: [] };
        groups.set(key, group);
      }
      group.items.push({ number: marker.number, kind: marker.verdict, marker });
    }

    const pills = [...groups.values()];
    for (const claim of result.claims) {
      if (!claim.added || claim.added.length === 0) continue;
      const { prefix, suffix, after } = diffs.get(claim.index);
      const inserted = after.slice(prefix, after.length - suffix);
      const lead = inserted.length - inserted.trimStart().length;
      const text = inserted.trim();
      if (!text) continue;
      const start = claim.outputStart + prefix + lead;
      pills.push({
        start,
        end: start + text.length,
        label: text,
        items: claim.added.map((number) => ({ number, kind: "added", claim })),
      });
    }
    return pills.sort((a, b) => a.start - b.start);
  }

  // -- tooltips ---------------------------------------------------------------------------

  function evidenceFor(claim, number) {
    if (!claim || !claim.evidence) return null;
    return claim.evidence.find((e) => e.number === number) || null;
  }

  /** Lines of a pill's tooltip: [{text, className}]; the quote is marked as such. */
  function describe(item, result, sources, claimsByIndex) {
    const number = item.number;
    const source = sources.get(number);
    const lines = [];
    if (source) {
      lines.push({ text: `[${number}] ${source.title || source.id}`, className: "tt-title" });
      const where = [source.domain, source.type].filter(Boolean).join(" · ");
      if (where) lines.push({ text: where, className: "tt-where" });
    } else {
      lines.push({ text: `[${number}] is not a known source`, className: "tt-title" });
    }
    const claim =
      item.kind === "added" ? item.claim : claimsByIndex.get(item.marker.claimIndex);
    let quote = evidenceFor(claim, number);
    switch (item.kind) {
      case "added":
        lines.push({ text: "Added: the claim carried no marker.", className: "tt-verdict" });
        break;
      case "wrong_source": {
        const better = item.marker.suggested;
        lines.push({
          // "[1][2]" where [1] alone supports the claim: [2] adds nothing, and [1] is there
          text: citedHere(claim, better)
            ? `Does not support the claim; [${better}], cited here too, does.`
            : `Does not support the claim; [${better}] does — try [${better}].`,
          className: "tt-verdict",
        });
        const found = evidenceFor(claim, better);
        if (found) quote = found;
        break;
      }
      case "unknown_number":
        lines.push({ text: "No source has this number.", className: "tt-verdict" });
        break;
      case "unsupported": {
        lines.push({ text: "No source supports the claim.", className: "tt-verdict" });
        const near = claim && claim.nearest && claim.nearest[0];
        if (near) {
          lines.push({ text: `Closest, from [${near.number}] (does not support it):`,
            className: "tt-label" });
          lines.push({ text: `“${near.text}”`, className: "tt-quote" });
        }
        break;
      }
      case "unverifiable":
        lines.push({ text: "The source's text was not given.", className: "tt-verdict" });
        break;
      default: {
        const score = item.marker.score;
        lines.push({
          text: `Supports the claim${score == null ? "" : ` (score ${score.toFixed(2)})`}.`,
          className: "tt-verdict",
        });
      }
    }
    if (quote) {
      lines.push({ text: `Evidence from [${quote.number}]:`, className: "tt-label" });
      lines.push({ text: `“${quote.text}”`, className: "tt-quote" });
    }
    return lines;
  }

  const tooltip = () => $("tooltip");

  function showTooltip(pill) {
    const tip = tooltip();
    tip.replaceChildren(
      ...pill.tooltipLines.map((line) =>
        el(line.className === "tt-quote" ? "blockquote" : "p", { className: line.className },
          line.text),
      ),
    );
    tip.hidden = false;
    const box = pill.getBoundingClientRect();
    const width = tip.offsetWidth;
    const left = Math.min(
      Math.max(8, box.left + window.scrollX),
      window.scrollX + document.documentElement.clientWidth - width - 8,
    );
    tip.style.left = `${left}px`;
    tip.style.top = `${box.bottom + window.scrollY + 6}px`;
  }

  function hideTooltip() {
    tooltip().hidden = true;
  }

  // -- rendering --------------------------------------------------------------------------

  function citedHere(claim, number) {
    return Boolean(claim && (claim.cited || []).includes(number));
  }

  function pillElement(item, lines, claim) {
    const cls = item.kind === "added" ? "marker-added" : MARKER_CLASS[item.kind] || "";
    const pill = el("span", {
      className: `pill ${cls}`,
      tabindex: 0,
      "data-number": item.number,
      "aria-describedby": "tooltip",
      title: lines.map((l) => l.text).join("\n"),
    }, String(item.number));
    if (item.kind === "wrong_source") {
      const better = item.marker.suggested;
      const note = citedHere(claim, better) ? `[${better}] has it` : `try [${better}]`;
      pill.append(el("span", { className: "note" }, note));
    } else if (item.kind === "unknown_number") {
      pill.append(el("span", { className: "note" }, "unknown"));
    } else if (item.kind === "added") {
      pill.append(el("span", { className: "note" }, "added"));
    }
    pill.tooltipLines = lines;
    pill.addEventListener("mouseenter", () => showTooltip(pill));
    pill.addEventListener("mouseleave", hideTooltip);
    pill.addEventListener("focus", () => showTooltip(pill));
    pill.addEventListener("blur", hideTooltip);
    return pill;
  }

  function renderAnswer(result, sources) {
    const answer = result.answer;
    const claimsByIndex = new Map(result.claims.map((c) => [c.index, c]));
    const pills = collectPills(result);
    const out = $("answer-out");
    out.replaceChildren();

    // Text of [from, to) into parent, with the pill groups wholly inside it as pills.
    const fill = (parent, from, to) => {
      let at = from;
      for (const group of pills) {
        if (group.start < at || group.end > to) continue;
        if (group.start > at) parent.append(answer.slice(at, group.start));
        const pillsOf = group.items.map((item) =>
          pillElement(
            item,
            describe(item, result, sources, claimsByIndex),
            item.kind === "added" ? item.claim : claimsByIndex.get(item.marker.claimIndex),
          ),
        );
        parent.append(
          el("span", { className: "marker", "data-marker": group.label }, ...pillsOf),
        );
        at = group.end;
      }
      if (at < to) parent.append(answer.slice(at, to));
    };

    let at = 0;
    const claims = [...result.claims].sort((a, b) => a.outputStart - b.outputStart);
    for (const claim of claims) {
      if (claim.outputStart < at) continue;
      fill(out, at, claim.outputStart);
      const label = VERDICT_LABEL[claim.verdict] || claim.verdict;
      const why = claim.reason ? `: ${claim.reason}` : "";
      const against = (claim.contradictingNumbers || []).map((n) => `[${n}]`).join(", ");
      const by = against ? ` by ${against}` : "";
      const near = claim.nearest && claim.nearest[0];
      const closest = near ? `\nClosest, from [${near.number}]: “${near.text}”` : "";
      const span = el("span", {
        className: `claim verdict-${claim.verdict}`,
        "data-claim-index": claim.index,
        title: `Claim ${claim.index + 1}: ${label}${by} (score ${claim.score.toFixed(2)})${why}${closest}`,
      });
      fill(span, claim.outputStart, claim.outputEnd);
      out.append(span);
      at = claim.outputEnd;
    }
    fill(out, at, answer.length);
  }

  function renderSummary(summary) {
    const n = (key) => summary[key] || 0;
    const claimParts = [
      `${n("supported")} supported`,
      `${n("partiallySupported")} partially supported`,
      `${n("unsupported")} unsupported`,
      `${n("contradicted")} contradicted`,
    ];
    const markerParts = [
      `${n("markersSupported")} supported`,
      `${n("markersWrong")} wrong source`,
      `${n("markersUnknown")} unknown`,
    ];
    if (n("markersUnsupported")) markerParts.push(`${n("markersUnsupported")} unsupported`);
    if (n("markersUnverifiable")) markerParts.push(`${n("markersUnverifiable")} unverifiable`);
    $("summary").replaceChildren(
      el("span", {}, `${n("claims")} claims: ${claimParts.join(", ")}.`),
      " ",
      el(
        "span",
        {},
        `${n("markersChecked")} markers checked: ${markerParts.join(", ")}; ` +
          `${n("markersAdded")} added.`,
      ),
    );
  }

  function renderWarnings(warnings) {
    const list = $("warnings");
    list.replaceChildren(
      ...(warnings || []).map((w) => el("li", {}, `${w.toolName}: ${w.reason}`)),
    );
    list.hidden = list.children.length === 0;
  }

  function renderSources(result, sources) {
    const rows = result.numbering.map((entry) => {
      const source = sources.get(entry.number) || {};
      const title = entry.title || source.title || entry.sourceId;
      const uri = source.uri || "";
      const titleCell = /^https?:\/\//i.test(uri)
        ? el("a", { href: uri, target: "_blank", rel: "noopener noreferrer" }, title)
        : title;
      return el(
        "tr",
        { "data-number": entry.number },
        el("td", { className: "num" }, String(entry.number)),
        el("td", {}, titleCell),
        el("td", {}, source.domain || "—"),
        el("td", {}, source.type || "—"),
      );
    });
    $("sources").tBodies[0].replaceChildren(...rows);
  }

  function render(result) {
    const byId = new Map(result.citations.sources.map((s) => [s.id, s]));
    const sources = new Map(
      result.numbering.map((entry) => {
        const source = byId.get(entry.sourceId) || { id: entry.sourceId };
        return [entry.number, { ...source, title: entry.title || source.title }];
      }),
    );
    hideTooltip();
    renderSummary(result.summary);
    renderWarnings(result.warnings);
    renderAnswer(result, sources);
    renderSources(result, sources);
    $("result").hidden = false;
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("load-example").addEventListener("click", () => {
      loadExample().catch((err) => setStatus(`Could not load the example: ${err.message}`, true));
    });
    $("input").addEventListener("submit", attribute);
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape") hideTooltip();
    });
  });
})();
