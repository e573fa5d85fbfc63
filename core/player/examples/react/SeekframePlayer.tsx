import '@seekframe/player';
import { useEffect, useRef } from 'react';

/** The element's own type, from the package: properties (currentTime, duration, paused) and methods (play, pause, seek). */
type PlayerElement = HTMLElementTagNameMap['seekframe-player'];

export interface SeekframePlayerProps {
  src: string;
  variables?: Record<string, unknown>;
  width?: number;
  controls?: boolean;
  onReady?: (detail: { duration: number; width: number; height: number }) => void;
  onTimeUpdate?: (currentTime: number) => void;
  onError?: (detail: { code: string; message: string }) => void;
}

/**
 * <seekframe-player> for React. Variables go in as a property (an object, not JSON), events come
 * out through addEventListener: that works with every React version (React 19 could also pass
 * them as props).
 */
export function SeekframePlayer({ src, variables, width, controls, onReady, onTimeUpdate, onError }: SeekframePlayerProps) {
  const ref = useRef<PlayerElement>(null);

  useEffect(() => {
    const player = ref.current;
    if (player && variables) (player as PlayerElement & { variables: Record<string, unknown> }).variables = variables;
  }, [variables]);

  useEffect(() => {
    const player = ref.current;
    if (!player) return;
    const ready = (event: Event) => onReady?.((event as CustomEvent).detail);
    const time = (event: Event) => onTimeUpdate?.((event as CustomEvent).detail.currentTime);
    const error = (event: Event) => onError?.((event as CustomEvent).detail);
    player.addEventListener('ready', ready);
    player.addEventListener('timeupdate', time);
    player.addEventListener('error', error);
    return () => {
      player.removeEventListener('ready', ready);
      player.removeEventListener('timeupdate', time);
      player.removeEventListener('error', error);
    };
  }, [onReady, onTimeUpdate, onError]);

  return <seekframe-player ref={ref} src={src} width={width} controls={controls ? '' : undefined} />;
}

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'seekframe-player': React.DetailedHTMLProps<React.HTMLAttributes<PlayerElement>, PlayerElement> & {
        src: string;
        width?: number;
        controls?: string;
      };
    }
  }
}
