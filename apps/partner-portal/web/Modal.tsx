import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A modal dialog on the browser's own <dialog>: showModal() makes the page behind inert
 * (focus stays inside, clicks outside do nothing), Escape closes it unless `busy`, and
 * closing returns focus to the control that opened it.
 */
export function Modal({
  labelledBy,
  onClose,
  busy = false,
  children,
}: {
  labelledBy: string;
  onClose: () => void;
  busy?: boolean;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  useEffect(() => {
    const dialog = ref.current!;
    opener.current = document.activeElement;
    dialog.showModal();
    return () => {
      if (dialog.open) dialog.close();
      if (opener.current instanceof HTMLElement && opener.current.isConnected) opener.current.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      aria-labelledby={labelledBy}
      className="dialog"
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) onClose();
      }}
    >
      {children}
    </dialog>
  );
}
