import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { api } from '../../lib/api';
import { Button, ErrorNote, Loading } from '../../ui/controls';
import { mailKey } from './mail-shell';

/**
 * The API's cleaned HTML made ready for the frame: images keep only absolute http(s) and data:
 * addresses (a relative one would be read against the app's own address), and the origins of those
 * are the only ones the frame's policy lets images load from (cid: parts as links; remote ones only
 * once the person asked, the API leaves them out before).
 */
function prepared(html: string): { html: string; origins: string[] } {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const origins = new Set<string>();
  for (const img of doc.querySelectorAll('img[src]')) {
    const src = img.getAttribute('src') ?? '';
    let url: URL | undefined;
    try {
      url = new URL(src);
    } catch {
      url = undefined;
    }
    if (url && (url.protocol === 'https:' || url.protocol === 'http:')) origins.add(url.origin);
    else if (url?.protocol !== 'data:') img.removeAttribute('src');
  }
  return { html: doc.body.innerHTML, origins: [...origins] };
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The document the frame shows: the API's cleaned HTML under a policy of its own (no script, no
 * fetch, no form, no plugin; images only from `images`), links opening in a new tab.
 */
export function frameDocument(html: string, images: string[]): string {
  const csp = [
    "default-src 'none'",
    `img-src data: ${images.join(' ')}`.trim(),
    "style-src 'unsafe-inline'",
    'font-src data:',
    "form-action 'none'",
    "script-src 'none'",
  ].join('; ');
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${escapeAttr(csp)}"><meta name="referrer" content="no-referrer"><base target="_blank"><style>html,body{margin:0;padding:0}body{font:14px/1.5 system-ui,sans-serif;color:#0f172a;overflow-wrap:anywhere}img{max-width:100%;height:auto}table{max-width:100%}</style></head><body>${html}</body></html>`;
}

/**
 * A message's body: its HTML in a sandboxed frame (no scripts: `sandbox` without allow-scripts;
 * same origin only so the page can size the frame to its content), remote images blocked until the
 * person asks ("Show images" reads the body again with `images=1`), else its text.
 */
export function MessageBody(props: {
  orgId: string;
  mailboxId: string;
  threadId: string;
  messageId: string;
  label: string;
}) {
  const [images, setImages] = useState(false);
  const body = useQuery({
    queryKey: [...mailKey(props.orgId, props.mailboxId), 'body', props.messageId, images],
    queryFn: () =>
      api().getMailMailboxesThreadsMessagesBody({
        orgId: props.orgId,
        mailboxId: props.mailboxId,
        threadId: props.threadId,
        messageId: props.messageId,
        images: images ? '1' : '0',
      }),
    staleTime: 240_000,
  });
  if (body.isPending) return <Loading what="the message" />;
  if (body.error) return <ErrorNote error={body.error} />;
  const { html, text, remoteImagesBlocked, truncated } = body.data;
  return (
    <div className="mt-3">
      {remoteImagesBlocked > 0 && !images && (
        <div className="mb-2 flex flex-wrap items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm">
          <span>
            Images are not displayed ({remoteImagesBlocked} remote {remoteImagesBlocked === 1 ? 'image' : 'images'}):
            loading them tells the sender you opened the message.
          </span>
          <Button onPress={() => setImages(true)}>Show images</Button>
        </div>
      )}
      {html ? (
        <HtmlFrame html={html} label={props.label} />
      ) : (
        <div className="whitespace-pre-wrap break-words text-sm">{text}</div>
      )}
      {truncated && <p className="mt-2 text-xs text-slate-600">This message is too long to show in full.</p>}
    </div>
  );
}

function HtmlFrame({ html, label }: { html: string; label: string }) {
  const ref = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(120);
  const ready = prepared(html);
  const doc = frameDocument(ready.html, ready.origins);
  useEffect(() => {
    const frame = ref.current;
    if (!frame) return;
    let observer: ResizeObserver | undefined;
    const resize = () => {
      const root = frame.contentDocument?.documentElement;
      if (!root) return;
      setHeight(Math.min(Math.max(root.scrollHeight, 40), 20_000) + 4);
      observer?.disconnect();
      observer = new ResizeObserver(() => setHeight(Math.min(Math.max(root.scrollHeight, 40), 20_000) + 4));
      observer.observe(root);
    };
    frame.addEventListener('load', resize);
    resize();
    return () => {
      frame.removeEventListener('load', resize);
      observer?.disconnect();
    };
  }, []);
  return (
    <iframe
      ref={ref}
      title={label}
      srcDoc={doc}
      // No allow-scripts: nothing in a message runs. Same origin (without scripts) lets the page
      // measure it; popups (escaping the sandbox) let its links open in a new tab.
      sandbox="allow-same-origin allow-popups allow-popups-to-escape-sandbox"
      referrerPolicy="no-referrer"
      className="block w-full border-0"
      style={{ height }}
    />
  );
}
