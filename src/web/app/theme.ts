/**
 * `data-color-scheme` on <html> from the person's color_scheme setting: 1 follows the system
 * (prefers-color-scheme), 2 is dark, 3 is light. app.css keys its custom properties on it.
 */
import { useEffect } from 'preact/hooks';

export function useColorScheme(setting: unknown): void {
  useEffect(() => {
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    const apply = () => {
      const dark = setting === 2 || (setting !== 3 && media.matches);
      document.documentElement.dataset['colorScheme'] = dark ? 'dark' : 'light';
    };
    apply();
    media.addEventListener('change', apply);
    return () => media.removeEventListener('change', apply);
  }, [setting]);
}
