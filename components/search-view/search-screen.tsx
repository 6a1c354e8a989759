import { useCallback, useSyncExternalStore } from "react";
import type { SearchController } from "../../controllers/search-controller.js";
import type { SearchHit } from "../../source/index/session-index.js";
import { SearchView } from "./search-view.js";

/** Props of `SearchScreen`. */
export interface SearchScreenProps {
	readonly controller: SearchController;
	readonly currentSessionFile?: string | undefined;
	readonly height: number;
	readonly width: number;
	readonly onSelect: (hit: SearchHit) => void;
	readonly onCancel: () => void;
}

/** The search view bound to its controller: the results follow the controller's snapshot. */
export function SearchScreen({ controller, currentSessionFile, height, width, onSelect, onCancel }: SearchScreenProps) {
	const snapshot = useSyncExternalStore(controller.subscribe, controller.getSnapshot);
	const onQueryChange = useCallback((query: string) => controller.setQuery(query), [controller]);
	const onToggleScope = useCallback(() => controller.toggleScope(), [controller]);
	return (
		<SearchView
			// Only read on mount: the view owns the line being edited from then on.
			initialQuery={snapshot.query}
			hits={snapshot.hits}
			hitsQuery={snapshot.query}
			scope={snapshot.scope}
			searched={snapshot.searched}
			refreshing={snapshot.refreshing}
			{...(snapshot.filterError === undefined ? {} : { filterError: snapshot.filterError })}
			{...(snapshot.error === undefined ? {} : { error: snapshot.error })}
			{...(currentSessionFile === undefined ? {} : { currentSessionFile })}
			height={height}
			width={width}
			isActive
			onQueryChange={onQueryChange}
			onToggleScope={onToggleScope}
			onSelect={onSelect}
			onCancel={onCancel}
		/>
	);
}
