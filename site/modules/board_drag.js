// @ts-check
// Drag and drop on a board: press on one of your pieces, move, release over a square. A press without a
// move is a tap (the board's click handler). Touch scrolls the page except on a movable piece (touch-action
// in CSS). The drop is reported as the taps it stands for: the piece, then the square.

/**
 * @typedef {object} DragTarget  what the drag needs of the board
 * @property {() => boolean} interactive
 * @property {(square: string) => boolean} ownPiece
 * @property {() => string | null} selected
 * @property {(square: string) => void} click
 * @property {() => HTMLElement} grid
 * @property {(square: string) => HTMLElement} cell
 */

export class BoardDrag {
  /** @param {DragTarget} board */
  constructor(board) {
    this.board = board;
    /** @type {{from: string, x: number, y: number, id: number, moving: boolean, svg?: SVGElement | null} | null} */
    this.drag = null;
    /** True between a drop and the click the browser sends after it, which is not a tap. */
    this.dragged = false;
  }

  /** @param {PointerEvent} event */
  start(event) {
    const button = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest("button[data-square]"));
    this.dragged = false;
    if (!this.board.interactive() || !button || !this.board.ownPiece(button.dataset.square) || event.button > 0) return;
    this.drag = { from: button.dataset.square, x: event.clientX, y: event.clientY, id: event.pointerId, moving: false };
  }

  /** @param {PointerEvent} event */
  move(event) {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.id) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.moving && Math.hypot(dx, dy) < 8) return;
    if (!drag.moving) {
      drag.moving = true;
      this.board.grid().setPointerCapture(event.pointerId);
      if (this.board.selected() !== drag.from) this.board.click(drag.from);
      drag.svg = this.board.cell(drag.from).querySelector("svg");
      this.board.grid().classList.add("dragging");
    }
    if (drag.svg) drag.svg.style.transform = `translate(${dx}px, ${dy}px) scale(1.15)`;
  }

  /** @param {PointerEvent} event */
  end(event) {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.id) return;
    if (drag.moving) {
      this.dragged = true; // the click that follows a drop is not a tap
      setTimeout(() => (this.dragged = false), 0);
      const under = document.elementFromPoint(event.clientX, event.clientY);
      /** @type {HTMLElement | null | undefined} */
      const target = under && under.closest && under.closest(".grid [role=gridcell]")?.querySelector("button[data-square]");
      this.reset();
      if (target && target.dataset.square !== drag.from) this.board.click(target.dataset.square);
    } else {
      this.drag = null;
    }
  }

  reset() {
    if (this.drag && this.drag.svg) this.drag.svg.style.transform = "";
    this.drag = null;
    this.board.grid().classList.remove("dragging");
  }
}
