import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { toaster } from '../../components/ui/toaster';
import { MSG } from './messages';

/**
 * Back from Etsy: the callback redirected to /connections?etsy=connected|denied|error. Shows
 * the matching toast once and removes the query string, so a reload shows nothing again.
 */
export function useEtsyReturnToast(onConnected: () => void) {
  const location = useLocation();
  const navigate = useNavigate();
  const handled = useRef<string | null>(null);

  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const outcome = params.get('etsy');
    if (!outcome || handled.current === location.key) return;
    handled.current = location.key;
    if (outcome === 'connected') {
      toaster.success(MSG.etsyConnected);
      onConnected();
    } else if (outcome === 'denied') {
      toaster.create({ type: 'info', title: 'Cancelled', description: MSG.etsyCancelled });
    } else {
      toaster.error(params.get('reason') === 'no_shop' ? MSG.etsyNoShop : MSG.etsyFailed);
    }
    void navigate(location.pathname, { replace: true });
  }, [location, navigate, onConnected]);
}
