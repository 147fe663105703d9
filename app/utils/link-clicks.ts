import { useNavigate } from '@remix-run/react'
import { useCallback, type MouseEvent } from 'react'

/**
 * One click handler for every link inside an element: a plain left click on a link to this
 * site is a client-side navigation, as a router link's would be; anything else (a new tab, a
 * download, another site) is left to the browser. For lists of many cards, whose links are
 * then plain anchors.
 */
export function useLinkClicks() {
  const navigate = useNavigate()
  return useCallback(
    (event: MouseEvent<HTMLElement>) => {
      if (event.defaultPrevented || event.button !== 0) return
      if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return
      const anchor = event.target instanceof Element ? event.target.closest('a') : null
      if (!anchor || !event.currentTarget.contains(anchor) || !anchor.href) return
      if ((anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download')) return
      const url = new URL(anchor.href)
      if (url.origin !== window.location.origin) return
      event.preventDefault()
      navigate(url.pathname + url.search + url.hash)
    },
    [navigate],
  )
}
